package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/notify"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmuxconf"
	"github.com/urfave/cli/v2"
)

// taw notify test: send one notification on every enabled channel and say what was sent. The
// notify package's observer (registered by its init) sends the real ones from the watcher.

const (
	flagNotifyKind = "kind"
)

type notifyTestOptions struct {
	Kind notify.Kind
	Pane string // "" is the calling pane, if any
}

func newNotifyCommand(f *Factory) *cli.Command {
	return group("notify", "notifications: see what the user would get",
		verb("test", "[--kind {blocked|finished}] [--pane <pane>]", "send one notification on every enabled channel and print what was sent",
			noArgs(f.notifyTest), &cli.StringFlag{Name: flagNotifyKind, Value: string(notify.KindBlocked), Usage: "the `<kind>`: blocked (needs a decision) or finished"},
			&cli.StringFlag{Name: flagPane, Usage: "the `<pane>` the notification is about (default: the calling pane)"}),
	)
}

func (f *Factory) notifyTest(c *cli.Context) error {
	kind := notify.Kind(c.String(flagNotifyKind))
	if kind != notify.KindBlocked && kind != notify.KindFinished {
		return InvalidValuef("invalid --kind %q (expected: blocked|finished)", kind)
	}
	opts := &notifyTestOptions{Kind: kind, Pane: c.String(flagPane)}
	return f.runOr(opts, func() error { return notifyTestRun(c.Context, f, opts) })
}

func notifyTestRun(ctx context.Context, f *Factory, opts *notifyTestOptions) error {
	// Every channel but the desktop one goes through the server, and the test is of what the
	// watcher of a server would send: no server is said as such, not as a failed channel.
	if _, err := f.Tmux().Output(ctx, "display-message", "-p", "#{pid}"); err != nil {
		return err
	}
	cfg, problems := config.Load(f.Getenv)
	for _, p := range problems {
		fmt.Fprintf(f.IO.ErrOut, "taw: %v\n", p)
	}
	n, err := testNotification(ctx, f, opts)
	if err != nil {
		return err
	}
	c := f.Tmux()
	if !notify.Enabled(ctx, c, cfg.Notify) {
		fmt.Fprintf(f.IO.Out, "note\tnotifications are off ([notify] enabled or %s): the watcher sends none; testing the channels anyway\n", tmuxconf.SettingNotify)
	}
	if !cfg.Notify.AgentOn(n.Agent) {
		fmt.Fprintf(f.IO.Out, "note\tnotifications are off for %s in [notify.agents]; testing the channels anyway\n", n.Agent)
	}
	s := &notify.Sender{Client: c, LookPath: f.LookPath, Environ: f.Environ}
	deliveries := s.Send(ctx, n, cfg.Notify)
	if len(deliveries) == 0 {
		_, err := fmt.Fprintln(f.IO.Out, "nothing sent: no channel is on, or no client is attached for the ones that write to clients ([notify] in taw config default lists the channels)")
		return err
	}
	if cfg.Notify.Desktop && !desktopTool(f) {
		fmt.Fprintf(f.IO.Out, "%s\t-\tnot sent: neither notify-send nor terminal-notifier is on PATH (install libnotify-bin, or set desktop = false in [notify])\n", notify.ChannelDesktop)
	}
	var failed []string
	for _, d := range deliveries {
		if d.Err != nil {
			fmt.Fprintf(f.IO.Out, "%s\t%s\tfailed: %v\n", d.Channel, d.Target, d.Err)
			failed = append(failed, d.Channel)
			continue
		}
		fmt.Fprintf(f.IO.Out, "%s\t%s\t%s\n", d.Channel, d.Target, d.Detail)
	}
	if len(failed) > 0 {
		return Errorf(coded.NotifyFailed, "could not notify on %s: see the lines above", strings.Join(failed, ", "))
	}
	return nil
}

// desktopTool says whether the desktop channel has a program to send with, as notify.Sender
// looks for one.
func desktopTool(f *Factory) bool {
	for _, name := range []string{"notify-send", "terminal-notifier"} {
		if _, err := f.LookPath(name); err == nil {
			return true
		}
	}
	return false
}

// testNotification describes the pane (its agent when it has one) for the test.
func testNotification(ctx context.Context, f *Factory, opts *notifyTestOptions) (notify.Notification, error) {
	arg := opts.Pane
	if arg == "" && f.Getenv("TMUX_PANE") != "" {
		arg = CallingPane
	}
	n := notify.Notification{Kind: opts.Kind, Agent: "taw", Display: "taw", Target: "(no pane)", Message: "this is a test", At: f.Now()}
	if arg == "" {
		return n, nil
	}
	id, err := f.ResolvePane(ctx, arg)
	if err != nil {
		return n, err
	}
	p, err := panestate.Read(ctx, f.Tmux(), id)
	if err != nil {
		return n, err
	}
	if p.Agent() == "" {
		p.Options[panestate.OptName] = "taw"
	}
	n = notify.NewNotification(opts.Kind, p, f.Now())
	if n.Message == "" {
		n.Message = "this is a test"
	}
	return n, nil
}
