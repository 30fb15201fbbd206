package agentctl

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/attention"
	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/detect"
	"github.com/taw-tmux/taw/helper/integration"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/session"
	"github.com/taw-tmux/taw/helper/shellquote"
	"github.com/taw-tmux/taw/helper/tmux"
)

// StartTimeout is how long a start that waits waits for the agent to be ready, unless told.
const StartTimeout = 60 * time.Second

// StartOptions say which agent to start, and where.
type StartOptions struct {
	Agent   *agents.Agent
	Pane    string // a pane to type into, at its shell prompt; "" makes one
	Split   string // "h" or "v": split SplitOf (the calling pane when ""); "" opens a window
	SplitOf string
	Cwd     string // an absolute folder, checked by the caller
	Args    []string
	Wait    bool // return once the agent is ready for input
	Timeout time.Duration
}

// Started is what a start did.
type Started struct {
	PaneID  string
	Command string         // what was typed, line by line
	Pane    panestate.Pane // with Wait: the pane once ready
}

// Lookup is the known agent that goes by name, for a start.
func Lookup(name string) (*agents.Agent, error) {
	a, ok := agents.Lookup(name)
	if !ok || len(a.Programs) == 0 {
		return nil, coded.Errorf(coded.UnknownAgent, "unknown agent %q: name one taw knows by its program (claude, codex, gemini, ...)", name)
	}
	return a, nil
}

// CheckStart refuses a command that cannot be typed at a shell prompt as it is.
func CheckStart(a *agents.Agent, args []string) error {
	argv := append([]string{a.Programs[0]}, args...)
	if err := report.ValidateResume(argv, nil); err != nil {
		return coded.Errorf(coded.InvalidArgument, "cannot type the command: %s", (err.(*report.ResumeError)).Reason)
	}
	return nil
}

// Start types a known agent's command at a shell prompt: in a new window, a split, or a pane
// that is at its shell prompt (any other is refused with busy).
func (c *Ctl) Start(ctx context.Context, opts StartOptions) (Started, error) {
	if err := CheckStart(opts.Agent, opts.Args); err != nil {
		return Started{}, err
	}
	// Typed into a shell, a missing program is only "command not found" in a window left behind:
	// look for it first, on the PATH panes get from tmux and on the caller's own.
	tmuxPath, _ := c.Tmux.Output(ctx, "show-environment", "-g", "PATH")
	if !programOnPath(opts.Agent.Programs[0], strings.TrimPrefix(tmuxPath, "PATH="), c.getenv("PATH")) {
		return Started{}, notInstalled(opts.Agent)
	}
	argv := append([]string{opts.Agent.Programs[0]}, opts.Args...)
	var paneID string
	switch {
	case opts.Pane != "":
		id, err := c.ResolvePane(ctx, opts.Pane)
		if err != nil {
			return Started{}, err
		}
		p, err := panestate.Read(ctx, c.Tmux, id)
		if err != nil {
			return Started{}, err
		}
		if !AtShellPrompt(p) {
			return Started{}, coded.Errorf(coded.Busy, "pane %s (%s) runs %s, not a shell at its prompt: nothing typed", p.ID, p.Target(), p.Command)
		}
		paneID = id
	default:
		cmd := tmux.Cmd{"new-window", "-d", "-P", "-F", "#{pane_id}"}
		if opts.Split != "" {
			of := opts.SplitOf
			if of == "" {
				of = integration.CallingPane
			}
			target, err := c.ResolvePane(ctx, of)
			if err != nil {
				return Started{}, err
			}
			cmd = tmux.Cmd{"split-window", "-d", "-" + opts.Split, "-t", target, "-P", "-F", "#{pane_id}"}
		}
		if opts.Cwd != "" {
			cmd = append(cmd, "-c", opts.Cwd)
		}
		id, err := c.Tmux.Output(ctx, cmd...)
		if err != nil {
			return Started{}, err
		}
		paneID = id
		// A shell that is still starting can drop what is typed before its prompt.
		if err := WaitShell(ctx, c.Tmux, paneID); err != nil {
			return Started{}, err
		}
	}
	// Typed at the shell's prompt the way a restore types a resume command: quoted for the shell
	// that really runs there.
	keys, err := session.TypeKeys(ctx, c.Tmux, paneID, argv)
	if err == nil && opts.Pane != "" && opts.Cwd != "" {
		var cd []tmux.Cmd
		cd, err = session.TypeKeys(ctx, c.Tmux, paneID, []string{"cd", opts.Cwd})
		keys = append(cd, keys...)
	}
	if err != nil {
		return Started{}, coded.Errorf(coded.InvalidArgument, "cannot type the command into pane %s: %v", paneID, err)
	}
	if _, err := c.Tmux.Run(ctx, keys...); err != nil {
		return Started{}, err
	}
	res := Started{PaneID: paneID, Command: typedText(keys)}
	if opts.Wait {
		timeout := opts.Timeout
		if timeout <= 0 {
			timeout = StartTimeout
		}
		p, err := c.waitReady(ctx, paneID, opts.Agent.ID, timeout)
		if err != nil {
			return res, err
		}
		res.Pane = p
	}
	return res, nil
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

// waitReady waits until the pane's agent is agentID and at its input: the agent reported idle,
// or it is idle and its screen shows its input by an idle rule of its own. A screen that matches
// no rule is idle only by the fallback: an agent still starting draws nothing yet, and text
// typed then is lost.
func (c *Ctl) waitReady(ctx context.Context, paneID, agentID string, timeout time.Duration) (panestate.Pane, error) {
	rules, _ := detect.Load(c.getenv)
	set := rules.Set(agentID)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wake := make(chan struct{}, 1)
	go c.Tmux.WaitLoop(ctx, panestate.SignalChannel, wake, waitBackstop)
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	poll := time.NewTicker(200 * time.Millisecond)
	defer poll.Stop()
	for {
		p, err := panestate.Read(ctx, c.Tmux, paneID)
		if err != nil {
			return p, err
		}
		if s := attention.Shown(p); p.Agent() == agentID && (s == report.StateIdle || s == attention.StateDone) {
			ready, err := c.atOwnInput(ctx, p, set)
			if err != nil || ready {
				return p, err
			}
		}
		select {
		case <-wake:
		case <-poll.C:
		case <-deadline.C:
			return p, coded.Errorf(coded.AgentNotReady, "%s in %s was not ready for input within %s (it is %s; is the watcher running? taw status says, and taw load starts it)", agentID, paneID, timeout, ShownOrNone(p))
		case <-ctx.Done():
			return p, ctx.Err()
		}
	}
}

// atOwnInput says whether p's idle agent is at its input: a report of its own says idle, or its
// screen matches an idle rule of set (the agent's rules; with none, or no idle rule among them,
// taw has only the fallback to go by).
func (c *Ctl) atOwnInput(ctx context.Context, p panestate.Pane, set *detect.RuleSet) (bool, error) {
	rec := p.Record()
	if rec.Source != "" && rec.Kind == p.Agent() && rec.ReportedState == report.StateIdle {
		return true, nil
	}
	if set == nil || !set.Reads(report.StateIdle) {
		return true, nil
	}
	screen, err := Capture(ctx, c.Tmux, p.ID, 0)
	if err != nil {
		return false, err
	}
	v := set.Classify(detect.Screen{Lines: Lines(screen, 0), Title: p.Title})
	return v.State == report.StateIdle && v.RuleID != detect.FallbackIdle, nil
}

// shellWait is how long a new pane's shell gets to draw its prompt.
const shellWait = 5 * time.Second

// WaitShell waits, at most shellWait, until a new pane's shell has drawn its prompt.
func WaitShell(ctx context.Context, c *tmux.Client, paneID string) error {
	deadline := time.Now().Add(shellWait)
	for {
		screen, err := Capture(ctx, c, paneID, 0)
		if err != nil {
			return err
		}
		if len(Lines(screen, 0)) > 0 || time.Now().After(deadline) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// AtShellPrompt says whether the pane's foreground program is a shell.
func AtShellPrompt(p panestate.Pane) bool { return shellquote.IsShell(p.Command) }

// getenv reads the caller's environment: Getenv, or the process's own.
func (c *Ctl) getenv(k string) string {
	if c.Getenv != nil {
		return c.Getenv(k)
	}
	return os.Getenv(k)
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
	return coded.Errorf(coded.AgentNotInstalled, "no program %s on PATH: %s is not installed; %s, then start it again", a.Programs[0], a.Display, how)
}
