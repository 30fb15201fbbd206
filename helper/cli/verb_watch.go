package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/taw-tmux/taw/helper/attention"
	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/detect"
	"github.com/taw-tmux/taw/helper/events"
	"github.com/taw-tmux/taw/helper/notify"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/plugins"
	"github.com/taw-tmux/taw/helper/session"
	"github.com/taw-tmux/taw/helper/shellquote"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxconf"
	"github.com/taw-tmux/taw/helper/tmuxfmt"
	"github.com/taw-tmux/taw/helper/watch"
	"github.com/urfave/cli/v2"
)

// taw watch: the pane watcher. The server's own watcher is started by the plugin (taw watch
// --serve, in the background); taw watch in a terminal runs one in the foreground and prints
// every transition, and --once makes one look and prints the panes that have an agent.
const (
	flagOnce     = "once"
	flagInterval = "interval"
	flagServe    = "serve"
)

type watchOptions struct {
	Once     bool
	Interval time.Duration // 0: the setting
	Serve    bool
	JSON     bool
}

func watchFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: flagOnce, Usage: "make one look, print the panes that have an agent, and exit"},
		&cli.StringFlag{Name: flagInterval, Usage: "look every `<duration>` (100ms to 1m; default: @agent-wizard-watch-interval, 1s)"},
		jsonFlagSaying("print JSON lines"),
		&cli.BoolFlag{Name: flagServe, Hidden: true, Usage: "run as the server's background watcher (the plugin starts it)"},
	}
}

func (f *Factory) watch(c *cli.Context) error {
	opts := &watchOptions{Once: c.Bool(flagOnce), Serve: c.Bool(flagServe), JSON: c.Bool(flagJSON)}
	if c.IsSet(flagInterval) {
		d, err := time.ParseDuration(strings.TrimSpace(c.String(flagInterval)))
		if err != nil || d < 100*time.Millisecond || d > time.Minute {
			return InvalidValuef("invalid --interval %q: give a duration from 100ms to 1m, such as 1s or 500ms", c.String(flagInterval))
		}
		opts.Interval = d
	}
	if opts.Once && opts.Serve {
		return UsageErrorf("--once and --serve do not go together")
	}
	return watchRun(c.Context, f, opts)
}

// watcherObservers are the features that act on the server watcher's looks, in the order they
// run: done and the rollups first, so that notifications, [hooks] commands and plugins' events,
// and automatic saves all see the look those made current.
func watcherObservers(f *Factory) []watch.Observer {
	cfg := &config.Live{Getenv: f.Getenv}
	return []watch.Observer{
		&attention.Observer{},
		&notify.Observer{Config: cfg},
		&events.Observer{Config: cfg, Plugins: &plugins.Live{Getenv: f.Getenv}},
		&session.AutosaveObserver{Getenv: f.Getenv},
	}
}

func watchRun(ctx context.Context, f *Factory, opts *watchOptions) error {
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, syscall.SIGHUP, os.Interrupt)
	defer stop()
	c := f.Tmux()
	dir := f.LockDir()
	logw := f.IO.ErrOut

	if opts.Serve {
		release, err := watch.Claim(dir, f.Getpid())
		if errors.Is(err, watch.ErrRunning) {
			return nil // the server has its watcher: starting another is a no-op
		}
		if err != nil {
			return err
		}
		defer release()
		if lf, err := watch.OpenLog(dir); err == nil {
			defer lf.Close()
			logw = lf
		}
		err = serveWatcher(ctx, f, c, opts, logw)
		removeIfServerGone(c, dir)
		return err
	}

	// A foreground watcher becomes the server's watcher when none runs; beside a running one it
	// only looks, and leaves the observers (notifications and the like) to it. One look never
	// claims the server: a background watcher starting meanwhile must not find it taken.
	observe := false
	if opts.Once {
		observe = watch.Running(dir) == 0
	} else {
		release, err := watch.Claim(dir, f.Getpid())
		switch {
		case err == nil:
			observe = true
			defer release()
		case errors.Is(err, watch.ErrRunning):
			fmt.Fprintf(logw, "taw watch: the server's watcher (pid %d) runs too: this one looks and prints, and leaves notifications to it\n", watch.Running(dir))
		default:
			return err
		}
	}
	var observers []watch.Observer
	if observe {
		observers = watcherObservers(f)
	}
	w := watch.New(watch.Config{
		Client: c, LockDir: dir, Rules: loadRules(f, logw), Now: f.Now, Interval: opts.Interval,
		Observers: observers, Logf: logTo(logw),
	})
	defer w.Close()
	if opts.Once {
		look, _, err := w.Look(ctx)
		if err != nil {
			return err
		}
		// A look leaves out what it does not need (each pane's command and directory, among
		// others, see watch.LeftOut); what is printed has them.
		if full, err := panestate.List(ctx, c); err == nil {
			fillLeftOut(look.Panes, full)
		}
		return printPanes(f.IO.Out, look, opts.JSON)
	}
	if _, _, err := w.Look(ctx); err != nil { // the first look says whether there is a server at all
		return err
	}
	if observe {
		// Published after the first look, the baseline: from now on every change is a transition.
		publishWatcherPid(ctx, c, f.Getpid())
		defer unpublishWatcherPid(c, f.Getpid())
	}
	return w.Run(ctx, func(l *watch.Look, _ watch.Stats) {
		_ = printTransitions(f.IO.Out, l, opts.JSON)
	})
}

func serveWatcher(ctx context.Context, f *Factory, c *tmux.Client, opts *watchOptions, logw io.Writer) error {
	pid := f.Getpid()
	logf := logTo(logw)
	logf("watcher %d started for %s", pid, f.SocketPath())
	if prev := strings.Fields(f.Getenv(watch.RestartEnv)); len(prev) == 2 {
		msg := fmt.Sprintf("taw: the pane watcher (pid %s) ended with status %s and was started again", prev[0], prev[1])
		logf("%s", msg)
		_, _ = c.Run(ctx, tmux.Cmd{"display-message", "-d", "5000", tmuxfmt.Message(msg)})
	}
	publishWatcherPid(ctx, c, pid)
	defer unpublishWatcherPid(c, pid)
	w := watch.New(watch.Config{
		Client: c, LockDir: f.LockDir(), Rules: loadRules(f, logw), Now: f.Now, Interval: opts.Interval,
		Observers: watcherObservers(f), Logf: logf,
	})
	defer w.Close()
	err := w.Run(ctx, nil)
	logf("watcher %d stopped", pid)
	return err
}

// removeIfServerGone removes the server's folder of locks and the watcher's log once the server
// has exited, so nothing of taw's stays in the temporary folder. It runs while the watcher still
// holds its claim: a watcher of a new server on the same socket makes a folder of its own. Only a
// real folder of the user's is removed, never one reached through a link.
func removeIfServerGone(c *tmux.Client, dir string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := c.Output(ctx, "display-message", "-p", "#{pid}"); !tmux.IsServerGone(err) {
		return
	}
	info, err := os.Lstat(dir)
	if err != nil || !info.IsDir() {
		return
	}
	if st, ok := info.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
		return
	}
	_ = os.RemoveAll(dir)
	_ = os.Remove(filepath.Dir(dir)) // the user's taw-UID folder, when no other server has one there
}

func publishWatcherPid(ctx context.Context, c *tmux.Client, pid int) {
	_, _ = c.Run(ctx, tmux.Cmd{"set-option", "-sq", watch.PidOption, strconv.Itoa(pid)})
}

// unpublishWatcherPid takes the pid off the server, unless another watcher has put its own there.
func unpublishWatcherPid(c *tmux.Client, pid int) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	cur, err := c.Output(ctx, "display-message", "-p", "#{"+watch.PidOption+"}")
	if err == nil && cur == strconv.Itoa(pid) {
		_, _ = c.Run(ctx, tmux.Cmd{"set-option", "-squ", watch.PidOption})
	}
}

func loadRules(f *Factory, logw io.Writer) *detect.Rules {
	rules, errs := detect.Load(f.Getenv)
	for _, err := range errs {
		fmt.Fprintf(logw, "taw watch: %v\n", err)
	}
	return rules
}

func logTo(w io.Writer) func(string, ...any) {
	return func(format string, args ...any) {
		fmt.Fprintf(w, "%s taw watch: %s\n", time.Now().Format("2006-01-02T15:04:05.000"), fmt.Sprintf(format, args...))
	}
}

// printPanes prints each pane that has an agent: id, target, agent, state (tab-separated), or
// the pane's JSON view.
func printPanes(w io.Writer, l *watch.Look, asJSON bool) error {
	for _, p := range l.Panes {
		if p.Agent() == "" {
			continue
		}
		if asJSON {
			if err := writeJSONLine(w, newPaneView(p)); err != nil {
				return err
			}
			continue
		}
		if _, err := fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", p.ID, p.Target(), p.Agent(), p.State()); err != nil {
			return err
		}
	}
	return nil
}

// transitionView is the JSON shape of one transition printed by taw watch --json.
type transitionView struct {
	At        int64   `json:"at"`
	PaneID    string  `json:"pane_id"`
	Target    string  `json:"target"`
	FromAgent *string `json:"from_agent"`
	FromState *string `json:"from_state"`
	ToAgent   *string `json:"to_agent"`
	ToState   *string `json:"to_state"`
	Gone      bool    `json:"gone"`
}

func printTransitions(w io.Writer, l *watch.Look, asJSON bool) error {
	for _, t := range l.Transitions {
		if asJSON {
			v := transitionView{At: t.At.UnixMilli(), PaneID: t.PaneID, Target: t.Pane.Target(),
				FromAgent: nullable(t.FromAgent), FromState: nullable(t.FromState),
				ToAgent: nullable(t.ToAgent), ToState: nullable(t.ToState), Gone: t.Gone}
			if err := writeJSONLine(w, v); err != nil {
				return err
			}
			continue
		}
		to := orDash(t.ToAgent) + " " + orDash(t.ToState)
		if t.Gone {
			to = "closed"
		}
		if _, err := fmt.Fprintf(w, "%s\t%s\t%s\t%s %s -> %s\n", t.At.Format("15:04:05.000"), t.PaneID, t.Pane.Target(),
			orDash(t.FromAgent), orDash(t.FromState), to); err != nil {
			return err
		}
	}
	return nil
}

// The watcher's part of loading: start the server's watcher (a no-op when one runs), and the
// hooks that wake it and clean up after closed panes.

// watcherHookEvents are the tmux hooks taw installs: panes appearing and going, and what the
// user looks at (for the observers that care whether a pane is in view). Those that fire on
// every switch only signal the watcher from within tmux; those where panes go run taw hook,
// which also removes the closed pane's lock file.
var (
	watcherWakeEvents = []string{
		"after-new-window", "after-split-window",
		"client-attached", "client-detached", "client-session-changed", "client-focus-in", "client-focus-out",
		"session-window-changed", "window-pane-changed",
	}
	watcherHookEvents = []string{"after-kill-pane", "pane-exited", "pane-died", "session-closed", "window-unlinked"}
)

var watcherStep = loadStep{
	name:   "the pane watcher",
	run:    startWatcher,
	hooks:  watcherHooks,
	unload: stopWatcher,
}

func startWatcher(ctx context.Context, l *loadContext) error {
	if !l.Settings.On(tmuxconf.SettingWatcher) {
		return stopWatcher(ctx, l)
	}
	dir := l.F.LockDir()
	if pid := watch.Running(dir); pid != 0 {
		if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); err != nil || exe == l.Bin {
			return nil // running, from this binary (or not known otherwise): a second start is a no-op
		}
		// The plugin was upgraded: the running watcher is an older binary, so it makes way.
		if err := replaceWatcher(ctx, dir, pid); err != nil {
			return err
		}
	}
	serve := shellquote.Quoted(l.Bin) + " -S " + shellquote.Quoted(l.F.SocketPath()) + " watch --serve"
	sh := "{ " + watch.SuperviseScript(serve, "tmux -S "+shellquote.Quoted(l.F.SocketPath())) + "\n} >/dev/null 2>&1 || true" // no "returned 1" in a pane, ever
	_, err := l.Client.Run(ctx, tmux.Cmd{"run-shell", "-b", tmuxfmt.Literal(sh)})
	return err
}

// replaceWatcher stops the watcher pid and waits (briefly) for it to let go of the server.
func replaceWatcher(ctx context.Context, dir string, pid int) error {
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("stop the old watcher (pid %d): %w", pid, err)
	}
	deadline := time.Now().Add(3 * time.Second)
	for watch.Running(dir) == pid {
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("the old watcher (pid %d) did not stop within 3s", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

func stopWatcher(ctx context.Context, l *loadContext) error {
	pid := watch.Running(l.F.LockDir())
	if pid > 0 {
		if err := syscall.Kill(pid, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
			return fmt.Errorf("stop the watcher (pid %d): %w", pid, err)
		}
	}
	return nil
}

func watcherHooks(l *loadContext) map[string][]string {
	sock := tmuxfmt.Literal(l.F.SocketPath())
	hooks := map[string][]string{}
	for _, ev := range watcherHookEvents {
		hooks[ev] = []string{tmuxconf.HookCommand(l.Bin, ev, "-S", sock, "hook", ev, "#{hook_pane}")}
	}
	for _, ev := range watcherWakeEvents {
		hooks[ev] = []string{tmuxconf.SignalCommand(watch.WakeChannel)}
	}
	return hooks
}

// fillLeftOut copies what a look leaves out of each pane (watch.LeftOut) from a full read.
func fillLeftOut(panes, full []panestate.Pane) {
	byID := make(map[string]panestate.Pane, len(full))
	for _, p := range full {
		byID[p.ID] = p
	}
	for i := range panes {
		if p, ok := byID[panes[i].ID]; ok {
			panes[i].Command, panes[i].Cwd, panes[i].TTY, panes[i].WindowName = p.Command, p.Cwd, p.TTY, p.WindowName
			panes[i].PaneActive, panes[i].WindowActive, panes[i].SessionAttached = p.PaneActive, p.WindowActive, p.SessionAttached
		}
	}
}
