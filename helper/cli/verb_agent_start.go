package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/taw-tmux/taw/helper/agentctl"
	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/coded"
	"github.com/urfave/cli/v2"
)

const (
	flagWindow = "window"
	flagSplit  = "split"
	flagCwd    = "cwd"
)

// startTimeout is how long agent start --wait waits for the agent to be ready, without --timeout.
const startTimeout = agentctl.StartTimeout

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
		&cli.StringFlag{Name: flagKind, Usage: "herdr's form: the agent `<agent>` to start, the argument being the name herdr gives it (taw keeps none)"},
		jsonFlag(),
	}
}

// flagKind is herdr's agent start --kind: with it, the positional argument is herdr's name for
// the agent, which taw does not keep, and the agent is the kind.
const flagKind = "kind"

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
	name := positional[0]
	if c.IsSet(flagKind) {
		name = c.String(flagKind)
	}
	a, err := agentctl.Lookup(name)
	if err != nil {
		return nil, err
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
			return nil, Errorf(coded.InvalidArgument, "invalid --cwd %q: %v", dir, err)
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return nil, Errorf(coded.InvalidArgument, "invalid --cwd %q: no such directory", dir)
		}
		opts.Cwd = abs
	}
	if err := agentctl.CheckStart(a, opts.Args); err != nil {
		return nil, err
	}
	return opts, nil
}

func agentStartRun(ctx context.Context, f *Factory, opts *agentStartOptions) error {
	res, err := f.agentCtl().Start(ctx, agentctl.StartOptions{
		Agent: opts.Agent, Pane: opts.Pane, Split: opts.Split, Cwd: opts.Cwd, Args: opts.Args,
		Wait: opts.Wait, Timeout: opts.Timeout,
	})
	if err != nil {
		return err
	}
	state := ""
	if opts.Wait {
		state = shownOrNone(res.Pane)
	}
	if !opts.JSON {
		_, err := fmt.Fprintf(f.IO.Out, "started %s in %s\n", opts.Agent.Display, res.PaneID)
		return err
	}
	return writeJSONLine(f.IO.Out, struct {
		OK      bool    `json:"ok"`
		PaneID  string  `json:"pane_id"`
		Agent   string  `json:"agent"`
		Command string  `json:"command"`
		State   *string `json:"state"`
	}{true, res.PaneID, opts.Agent.ID, res.Command, nullable(state)})
}
