package cli

import (
	"time"

	"github.com/taw-tmux/taw/helper/session"
	"github.com/taw-tmux/taw/helper/tmuxconf"
	"github.com/urfave/cli/v2"
)

// taw session autosave: tmux hooks run it.

func (f *Factory) sessionAutosave(c *cli.Context) error {
	a := &session.Autosaver{
		Client: f.Tmux(), LockDir: f.LockDir(), Store: sessionStore(f), Now: f.Now, Sleep: time.Sleep,
	}
	return a.Request(c.Context)
}

// autosaveEvents are the tmux events after which the layout of sessions may have changed.
var autosaveEvents = []string{
	"session-created", "session-closed", "session-renamed", "window-linked", "window-unlinked",
	"window-renamed", "pane-exited", "after-split-window", "after-kill-pane", "after-resize-pane",
	"after-select-layout",
}

// sessionAutosaveStep installs the autosave hooks when @agent-wizard-autosave is on.
var sessionAutosaveStep = loadStep{
	name: "automatic saves",
	hooks: func(l *loadContext) map[string][]string {
		if !l.Settings.On(tmuxconf.SettingAutosave) {
			return nil
		}
		hooks := map[string][]string{}
		for _, ev := range autosaveEvents {
			hooks[ev] = []string{tmuxconf.HookCommand(l.Bin, ev, "-S", l.F.SocketPath(), "session", "autosave")}
		}
		return hooks
	},
}
