package cli

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/watch"
	"github.com/urfave/cli/v2"
)

// taw hook is what taw's tmux hooks run (see watcherHookEvents): it wakes the watcher, so it
// looks at once, and removes what a closed pane leaves behind in the lock folder. It is quick
// (one tmux call) and never fails: a hook must not disturb tmux or the user.

// hookTimeout bounds the hook's one tmux call.
const hookTimeout = 2 * time.Second

type hookOptions struct {
	Event string
	Pane  string // the hook's pane (#{hook_pane}), "" when the event has none
}

func newHookCommand(f *Factory) *cli.Command {
	hook := hidden(verb("hook", "<event> [<pane>]", "what taw's tmux hooks run: wake the watcher and clean up after closed panes", f.hook))
	// The agents' hooks: see verb_hook_report.go.
	hook.Subcommands = []*cli.Command{hidden(verb("report", "<agent> <event> [--parent <pid>] [--order <pid>]",
		"what taw's installed hook scripts run: report one hook event of an agent, its payload on stdin", f.hookReport, hookReportFlags()...))}
	return hook
}

func (f *Factory) hook(c *cli.Context) error {
	positional, _, _ := splitArgs(c)
	if len(positional) < 1 || len(positional) > 2 {
		return UsageErrorf("hook takes an event and optionally a pane: taw hook <event> [<pane>]")
	}
	opts := &hookOptions{Event: positional[0]}
	if len(positional) == 2 {
		opts.Pane = positional[1]
	}
	hookRun(c.Context, f, opts)
	return nil
}

// hookRun lists the panes and wakes the watcher in one tmux call, then removes the lock files of
// panes that are gone: the hook's own pane when it closed, and any older ones left over.
func hookRun(ctx context.Context, f *Factory, opts *hookOptions) {
	ctx, cancel := context.WithTimeout(ctx, hookTimeout)
	defer cancel()
	c := f.Tmux()
	c.Timeout = hookTimeout
	out, err := c.Run(ctx, append([]tmux.Cmd{{"list-panes", "-a", "-F", "#{pane_id}"}}, tmux.SignalCmds(watch.WakeChannel)...)...)
	if err != nil {
		return
	}
	alive := map[string]bool{}
	for _, id := range strings.Fields(out) {
		alive[id] = true
	}
	dir := f.LockDir()
	if paneIDPattern.MatchString(opts.Pane) && !alive[opts.Pane] {
		_ = os.Remove(panestate.LockPath(dir, opts.Pane))
	}
	watch.SweepLocks(dir, alive)
}
