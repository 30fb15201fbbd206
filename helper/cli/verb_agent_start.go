package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/attention"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/session"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/urfave/cli/v2"
)

const (
	flagWindow = "window"
	flagSplit  = "split"
	flagCwd    = "cwd"
)

// startTimeout is how long agent start --wait waits for the agent to be ready, without --timeout.
const startTimeout = 60 * time.Second

type agentStartOptions struct {
	Agent   *agents.Agent
	Pane    string // a pane to type into; "" makes one
	Split   string // "h" or "v": split the calling pane; "" opens a window
	Cwd     string
	Args    []string
	Wait    bool
	Timeout time.Duration
	JSON    bool
}

func agentStartFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: flagPane, Usage: "type the command at the shell prompt of pane `<pane>`"},
		&cli.BoolFlag{Name: flagWindow, Usage: "open a new window for it, as taw does when no place is given"},
		&cli.StringFlag{Name: flagSplit, Usage: "split the calling pane in `<direction>` h (side by side) or v (one over the other)"},
		&cli.StringFlag{Name: flagCwd, Usage: "start it in `<dir>`"},
		&cli.BoolFlag{Name: flagWait, Usage: "return once the agent is ready for input"},
		timeoutFlag("with --wait: give up after `<duration>` (default 60s)"),
		jsonFlag(),
	}
}

func (f *Factory) agentStart(c *cli.Context) error {
	opts, err := parseAgentStart(f, c)
	if err != nil {
		return err
	}
	return agentStartRun(c.Context, f, opts)
}

func parseAgentStart(f *Factory, c *cli.Context) (*agentStartOptions, error) {
	positional, after, _ := splitArgs(c)
	if len(positional) != 1 {
		return nil, UsageErrorf("agent start takes one agent: taw agent start <agent> [-- ARGS...]")
	}
	a, ok := agents.Lookup(positional[0])
	if !ok || len(a.Programs) == 0 {
		return nil, Errorf(CodeUnknownAgent, "unknown agent %q: name one taw knows by its program (claude, codex, gemini, ...)", positional[0])
	}
	opts := &agentStartOptions{Agent: a, Pane: c.String(flagPane), Split: c.String(flagSplit), Args: after, Wait: c.Bool(flagWait), Timeout: startTimeout, JSON: wantJSON(f, c)}
	places := 0
	for _, set := range []bool{opts.Pane != "", c.Bool(flagWindow), c.IsSet(flagSplit)} {
		if set {
			places++
		}
	}
	if places > 1 {
		return nil, UsageErrorf("say one place: --pane P, --window or --split h|v")
	}
	if c.IsSet(flagSplit) && opts.Split != "h" && opts.Split != "v" {
		return nil, InvalidValuef("invalid --split %q (expected: h|v)", opts.Split)
	}
	if c.IsSet(flagTimeout) {
		if !opts.Wait {
			return nil, UsageErrorf("--timeout goes with --wait")
		}
		d, err := parseTimeout(c.String(flagTimeout))
		if err != nil {
			return nil, err
		}
		opts.Timeout = d
	}
	if dir := c.String(flagCwd); c.IsSet(flagCwd) {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, Errorf(CodeInvalidArgument, "invalid --cwd %q: %v", dir, err)
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return nil, Errorf(CodeInvalidArgument, "invalid --cwd %q: no such directory", dir)
		}
		opts.Cwd = abs
	}
	argv := append([]string{a.Programs[0]}, opts.Args...)
	if err := report.ValidateResume(argv, nil); err != nil {
		return nil, Errorf(CodeInvalidArgument, "cannot type the command: %s", (err.(*report.ResumeError)).Reason)
	}
	return opts, nil
}

func agentStartRun(ctx context.Context, f *Factory, opts *agentStartOptions) error {
	c := f.Tmux()
	// Typed into a shell, a missing program is only "command not found" in a window left behind:
	// look for it first, on the PATH panes get from tmux and on the caller's own.
	tmuxPath, _ := c.Output(ctx, "show-environment", "-g", "PATH")
	if !programOnPath(opts.Agent.Programs[0], strings.TrimPrefix(tmuxPath, "PATH="), f.Getenv("PATH")) {
		return notInstalled(opts.Agent)
	}
	argv := append([]string{opts.Agent.Programs[0]}, opts.Args...)
	var paneID string
	switch {
	case opts.Pane != "":
		id, err := f.ResolvePane(ctx, opts.Pane)
		if err != nil {
			return err
		}
		p, err := panestate.Read(ctx, c, id)
		if err != nil {
			return err
		}
		if !atShellPrompt(p) {
			return Errorf(CodeBusy, "pane %s (%s) runs %s, not a shell at its prompt: nothing typed", p.ID, p.Target(), p.Command)
		}
		paneID = id
	default:
		cmd := tmux.Cmd{"new-window", "-d", "-P", "-F", "#{pane_id}"}
		if opts.Split != "" {
			target, err := f.ResolvePane(ctx, CallingPane)
			if err != nil {
				return err
			}
			cmd = tmux.Cmd{"split-window", "-d", "-" + opts.Split, "-t", target, "-P", "-F", "#{pane_id}"}
		}
		if opts.Cwd != "" {
			cmd = append(cmd, "-c", opts.Cwd)
		}
		id, err := c.Output(ctx, cmd...)
		if err != nil {
			return err
		}
		paneID = id
	}
	if opts.Pane == "" {
		// A shell that is still starting can drop what is typed before its prompt.
		if err := waitPrompt(ctx, c, paneID); err != nil {
			return err
		}
	}
	// Typed at the shell's prompt the way a restore types a resume command: quoted for the shell
	// that really runs there.
	keys, err := session.TypeKeys(ctx, c, paneID, argv)
	if err == nil && opts.Pane != "" && opts.Cwd != "" {
		var cd []tmux.Cmd
		cd, err = session.TypeKeys(ctx, c, paneID, []string{"cd", opts.Cwd})
		keys = append(cd, keys...)
	}
	if err != nil {
		return Errorf(CodeInvalidArgument, "cannot type the command into pane %s: %v", paneID, err)
	}
	if _, err := c.Run(ctx, keys...); err != nil {
		return err
	}
	state := ""
	if opts.Wait {
		p, err := waitReady(ctx, f, paneID, opts.Agent.ID, opts.Timeout)
		if err != nil {
			return err
		}
		state = shownOrNone(p)
	}
	if !opts.JSON {
		_, err := fmt.Fprintf(f.IO.Out, "started %s in %s\n", opts.Agent.Display, paneID)
		return err
	}
	return writeJSONLine(f.IO.Out, struct {
		OK      bool    `json:"ok"`
		PaneID  string  `json:"pane_id"`
		Agent   string  `json:"agent"`
		Command string  `json:"command"`
		State   *string `json:"state"`
	}{true, paneID, opts.Agent.ID, typedText(keys), nullable(state)})
}

// programOnPath says whether an executable file named name is in a folder of one of the PATH
// lists.
func programOnPath(name string, paths ...string) bool {
	for _, list := range paths {
		for _, dir := range filepath.SplitList(list) {
			if dir == "" || !filepath.IsAbs(dir) {
				continue
			}
			if st, err := os.Stat(filepath.Join(dir, name)); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
				return true
			}
		}
	}
	return false
}

func notInstalled(a *agents.Agent) error {
	how := "install it"
	if len(a.Packages) > 0 {
		how = "install it (its package is " + a.Packages[0] + ")"
	}
	return Errorf(CodeAgentNotInstalled, "no program %s on PATH: %s is not installed; %s, then start it again", a.Programs[0], a.Display, how)
}

// typedText is what the keys type, line by line.
func typedText(keys []tmux.Cmd) string {
	var lines []string
	for _, k := range keys {
		if len(k) > 0 && k[0] == "send-keys" && k[len(k)-2] == "--" {
			lines = append(lines, k[len(k)-1])
		}
	}
	return strings.Join(lines, "\n")
}

// waitReady waits until the pane's agent is agentID and at its input: the watcher read it idle,
// or the agent reported so.
func waitReady(ctx context.Context, f *Factory, paneID, agentID string, timeout time.Duration) (panestate.Pane, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wake := make(chan struct{}, 1)
	go f.Tmux().WaitLoop(ctx, panestate.SignalChannel, wake, waitBackstop)
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	poll := time.NewTicker(200 * time.Millisecond)
	defer poll.Stop()
	for {
		p, err := panestate.Read(ctx, f.Tmux(), paneID)
		if err != nil {
			return p, err
		}
		if s := attention.Shown(p); p.Agent() == agentID && (s == report.StateIdle || s == attention.StateDone) {
			return p, nil
		}
		select {
		case <-wake:
		case <-poll.C:
		case <-deadline.C:
			return p, Errorf(CodeAgentNotReady, "%s in %s was not ready for input within %s (it is %s; is the watcher running? taw status says, and taw load starts it)", agentID, paneID, timeout, shownOrNone(p))
		case <-ctx.Done():
			return p, ctx.Err()
		}
	}
}

// waitPrompt waits, at most shellPromptWait, until a new pane's shell has drawn its prompt.
func waitPrompt(ctx context.Context, c *tmux.Client, paneID string) error {
	deadline := time.Now().Add(shellPromptWait)
	for {
		screen, err := captureScreen(ctx, c, paneID, 0)
		if err != nil {
			return err
		}
		if len(screenLines(screen, 0)) > 0 || time.Now().After(deadline) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

const shellPromptWait = 5 * time.Second

// atShellPrompt says whether the pane's foreground program is a shell.
func atShellPrompt(p panestate.Pane) bool {
	switch p.Command {
	case "sh", "bash", "zsh", "fish", "dash", "ksh", "mksh", "tcsh", "csh", "nu", "elvish", "xonsh", "ash", "-bash", "-zsh", "-sh":
		return true
	}
	return false
}
