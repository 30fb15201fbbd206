package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/taw-tmux/taw/helper/tmuxconf"
	"github.com/taw-tmux/taw/helper/watch"
	"github.com/urfave/cli/v2"
)

// taw status says what the plugin's last load had to say: a status-line message is gone in
// seconds, and tmux's message log fills with other commands, so this is where taw's news stays.

type statusOptions struct{ JSON bool }

func (f *Factory) status(c *cli.Context) error {
	return statusRun(c.Context, f, &statusOptions{JSON: wantJSON(f, c)})
}

func statusRun(ctx context.Context, f *Factory, opts *statusOptions) error {
	s, err := tmuxconf.ReadSettings(ctx, f.Tmux())
	if err != nil {
		return err
	}
	loaded := s[loadedOption]
	messages := loadMessages(s[statusOption])
	watcher := watch.Running(f.LockDir())
	if opts.JSON {
		return writeJSONLine(f.IO.Out, struct {
			Loaded     string   `json:"loaded"`
			WatcherPid int      `json:"watcher_pid"`
			Messages   []string `json:"messages"`
		}{loaded, watcher, messages})
	}
	switch {
	case loaded == "" && s[tmuxconf.BinOption] == "":
		fmt.Fprintln(f.IO.Out, "taw is not loaded in this tmux server: add the plugin line to ~/.tmux.conf, or run taw load")
	case loaded == "none":
		fmt.Fprintln(f.IO.Out, "taw did not load: its messages below say why")
	default:
		fmt.Fprintf(f.IO.Out, "taw is loaded: %s\n", firstNonEmpty(loaded, s[tmuxconf.BinOption]))
	}
	if watcher > 0 {
		fmt.Fprintf(f.IO.Out, "the watcher runs (pid %d)\n", watcher)
	} else {
		fmt.Fprintf(f.IO.Out, "no watcher runs: %s (or set -g %s on)\n", "taw load starts it", tmuxconf.SettingWatcher)
	}
	if len(messages) == 0 {
		fmt.Fprintln(f.IO.Out, "the last load had nothing to report")
	}
	for _, m := range messages {
		fmt.Fprintln(f.IO.Out, m)
	}
	return nil
}

// loadMessages splits what a load kept in @agent-wizard-status ("taw: a; b") into its messages.
func loadMessages(status string) []string {
	status = strings.TrimPrefix(status, "taw: ")
	if status == "" {
		return []string{}
	}
	return strings.Split(status, "; ")
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
