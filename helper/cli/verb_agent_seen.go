package cli

import (
	"context"

	"github.com/taw-tmux/taw/helper/attention"
	"github.com/taw-tmux/taw/helper/badges"
	"github.com/taw-tmux/taw/helper/tmuxconf"
	"github.com/taw-tmux/taw/helper/tmuxfmt"
	"github.com/urfave/cli/v2"
)

// agentSeen is what taw's hooks run when the user moves to another pane, window or
// session: every pane an attached client now shows stops being done.
func (f *Factory) agentSeen(c *cli.Context) error {
	_, err := attention.Seen(c.Context, f.Tmux())
	return err
}

// seenHooks fire when what a client shows may have changed. Each runs taw only while some agent
// is done, so moving around costs no process otherwise.
var seenHooks = []string{
	"after-select-pane", "after-select-window", "client-session-changed", "session-window-changed",
	"window-pane-changed", "client-attached", "client-focus-in", "pane-focus-in",
}

// seenHookCommand is the tmux command of one seen hook.
// The socket is named literally: a format would need escaping through two levels of quotes.
func seenHookCommand(bin, socket, event string) string {
	run := tmuxconf.HookCommand(bin, event, "-S", socket, "agent", "seen")
	return "if-shell -F " + tmuxfmt.QuoteString("#{"+attention.OptCountPrefix+attention.StateDone+"}") + " " + tmuxfmt.QuoteString(run)
}

// attentionStep loads the glanceable side: the seen hooks, the popup and next keys, and the
// window badges when they are on. Unloading takes out the badges and every option the rollups
// wrote.
var attentionStep = loadStep{
	name: "agents at a glance",
	run: func(ctx context.Context, l *loadContext) error {
		if err := badges.ApplyStatus(ctx, l.Client, l.Settings.On(tmuxconf.SettingStatusLine)); err != nil {
			return err
		}
		return badges.Apply(ctx, l.Client, l.Settings.On(tmuxconf.SettingWindowBadges))
	},
	hooks: func(l *loadContext) map[string][]string {
		hooks := map[string][]string{}
		for _, h := range seenHooks {
			hooks[h] = []string{seenHookCommand(l.Bin, l.F.SocketPath(), h)}
		}
		return hooks
	},
	keys: func(l *loadContext) []tmuxconf.Binding {
		return []tmuxconf.Binding{
			{Table: "prefix", Key: l.Settings.Get(tmuxconf.SettingPopupKey), Explicit: l.Settings.Set(tmuxconf.SettingPopupKey), Option: tmuxconf.SettingPopupKey,
				Command: tmuxconf.KeyShell(l.Bin, "popup", "-S", "#{socket_path}", "popup", "--open", "--client", "#{client_name}")},
			{Table: "prefix", Key: l.Settings.Get(tmuxconf.SettingNextKey), Explicit: l.Settings.Set(tmuxconf.SettingNextKey), Option: tmuxconf.SettingNextKey,
				Command: tmuxconf.KeyShell(l.Bin, "next", "-S", "#{socket_path}", "agent", "next", "--client", "#{client_name}")},
		}
	},
	unload: func(ctx context.Context, l *loadContext) error {
		if err := badges.Apply(ctx, l.Client, false); err != nil {
			return err
		}
		if err := badges.ApplyStatus(ctx, l.Client, false); err != nil {
			return err
		}
		return attention.Clear(ctx, l.Client)
	},
}
