package cli

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/attention"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/urfave/cli/v2"
)

const (
	flagChanged = "changed"
)

// waitBackstop is how often a wait reads the pane even with no wake-up: a change signalled while
// another waiter held the channel reaches this one no later than that.
const waitBackstop = time.Second

// defaultUntil is what a wait waits for without --until: the end of a turn, or a question.
var defaultUntil = []string{report.StateIdle, attention.StateDone, report.StateBlocked}

type agentWaitOptions struct {
	Target  string
	Until   []string      // states that end the wait
	Timeout time.Duration // < 0: wait for ever
	Changed bool          // only a state reached after the wait started counts
}

func agentWaitFlags() []cli.Flag {
	return []cli.Flag{
		untilFlag("a `<state>` that ends the wait (repeatable; default idle, done and blocked)"),
		timeoutFlag("give up after `<duration>` (30s, 2m, or milliseconds as a bare number); default never"),
		&cli.BoolFlag{Name: flagChanged, Usage: "count only a state the agent moves into after the wait starts"},
	}
}

func (f *Factory) agentWait(c *cli.Context, target string) error {
	opts, err := parseWaitFlags(c, target)
	if err != nil {
		return err
	}
	return agentWaitRun(c.Context, f, opts)
}

// parseWaitFlags reads --until, --timeout and --changed, for agent wait and the verbs that wait
// as it does.
func parseWaitFlags(c *cli.Context, target string) (*agentWaitOptions, error) {
	opts := &agentWaitOptions{Target: target, Timeout: -1, Changed: c.Bool(flagChanged)}
	for _, v := range c.StringSlice(flagUntil) {
		for _, s := range strings.Split(v, ",") {
			s = strings.ToLower(strings.TrimSpace(s))
			if !attention.ValidState(s) {
				return nil, InvalidValuef("invalid --until %q (expected: idle|done|working|blocked|unknown)", s)
			}
			opts.Until = append(opts.Until, s)
		}
	}
	if len(opts.Until) == 0 {
		opts.Until = defaultUntil
	}
	if c.IsSet(flagTimeout) {
		d, err := parseTimeout(c.String(flagTimeout))
		if err != nil {
			return nil, err
		}
		opts.Timeout = d
	}
	return opts, nil
}

// parseTimeout reads a Go duration (30s, 1m30s) or, as herdr's --timeout does, a bare number of
// milliseconds.
func parseTimeout(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 {
			return 0, InvalidValuef("invalid --timeout %q: it cannot be negative", s)
		}
		return time.Duration(n) * time.Millisecond, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, InvalidValuef("invalid --timeout %q (expected a duration such as 30s or 2m, or milliseconds)", s)
	}
	return d, nil
}

// waitKey is what a transition of the agent changes: its own state and when that last moved (so
// a turn that went and came back between two reads still counts). done coming or going is not a
// transition: it follows one that already happened, or someone looking.
type waitKey struct{ state, since string }

func keyOf(p panestate.Pane) waitKey {
	return waitKey{p.State(), p.Options[panestate.OptStateSince]}
}

// untilMatches says whether a state ends the wait. idle also matches done: a done agent is idle,
// and a script waiting for idle must not hang because nobody looked at the pane.
func untilMatches(until []string, state string) bool {
	for _, u := range until {
		if u == state || (u == report.StateIdle && state == attention.StateDone) {
			return true
		}
	}
	return false
}

func agentWaitRun(ctx context.Context, f *Factory, opts *agentWaitOptions) error {
	p, err := resolveAgent(ctx, f, opts.Target)
	if err != nil {
		return err
	}
	// The wait follows this agent in this pane: it ends when either goes.
	paneID, agent := p.ID, p.Agent()
	start := keyOf(p)
	done := func(p panestate.Pane) bool {
		return untilMatches(opts.Until, attention.Shown(p)) && (!opts.Changed || keyOf(p) != start)
	}
	if done(p) {
		return writeJSONLine(f.IO.Out, newPaneView(p))
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var deadline <-chan time.Time
	if opts.Timeout >= 0 {
		t := time.NewTimer(opts.Timeout)
		defer t.Stop()
		deadline = t.C
	}
	wake := make(chan struct{}, 1)
	go f.Tmux().WaitLoop(ctx, panestate.SignalChannel, wake, waitBackstop)
	tick := time.NewTicker(waitBackstop)
	defer tick.Stop()

	c := f.Tmux()
	for {
		// Read after the waiter started, and after every wake-up: a change between the last read
		// and the waiter's start is seen here rather than lost.
		p, err := panestate.Read(ctx, c, paneID)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if AsError(err).Code == CodePaneNotFound {
				return Errorf(CodeAgentNotRunning, "pane %s closed while waiting for %s", paneID, agent)
			}
			return err
		}
		if p.Agent() != agent {
			now := p.Agent()
			if now == "" {
				return Errorf(CodeAgentNotRunning, "%s left pane %s (%s) while waiting for it", agent, paneID, p.Target())
			}
			return Errorf(CodeAgentNotRunning, "%s in pane %s (%s) was replaced by %s while waiting for it", agent, paneID, p.Target(), now)
		}
		if done(p) {
			return writeJSONLine(f.IO.Out, newPaneView(p))
		}
		select {
		case <-wake:
		case <-tick.C:
		case <-deadline:
			return Errorf(CodeTimeout, "timed out after %s waiting for %s in pane %s (%s) to be %s; it is %s", opts.Timeout, agent, paneID, p.Target(), orList(opts.Until), shownOrNone(p))
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// orList writes states as people say them: "idle", "idle or done", "idle, done or blocked".
func orList(words []string) string {
	if len(words) <= 1 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
