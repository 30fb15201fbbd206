package agentctl

import (
	"context"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/attention"
	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
)

// waitBackstop is how often a wait reads the pane even with no wake-up: a change signalled while
// another waiter held the channel reaches this one no later than that.
const waitBackstop = time.Second

// DefaultUntil is what a wait waits for when told nothing: the end of a turn, or a question.
var DefaultUntil = []string{report.StateIdle, attention.StateDone, report.StateBlocked}

// WaitOptions say what a wait waits for.
type WaitOptions struct {
	Target  string
	Until   []string      // states that end the wait; empty: DefaultUntil
	Timeout time.Duration // < 0: wait for ever
	Changed bool          // only a state reached after the wait started counts
	// Settle, with Changed: a state asked for counts once this long has passed with no change
	// seen, since a turn shorter than one of the watcher's looks leaves none to see.
	Settle time.Duration
}

// PromptSettle is how long a wait after a prompt waits to see the turn before it takes an idle
// agent's turn as over (herdr, too, wants a change within five seconds of a prompt).
const PromptSettle = 5 * time.Second

// key is what a transition of the agent changes: its own state and when that last moved (so a
// turn that went and came back between two reads still counts). done coming or going is not a
// transition: it follows one that already happened, or someone looking.
type key struct{ state, since string }

func keyOf(p panestate.Pane) key {
	return key{p.State(), p.Options[panestate.OptStateSince]}
}

// UntilMatches says whether a state ends the wait. idle also matches done: a done agent is idle,
// and a script waiting for idle must not hang because nobody looked at the pane.
func UntilMatches(until []string, state string) bool {
	for _, u := range until {
		if u == state || (u == report.StateIdle && state == attention.StateDone) {
			return true
		}
	}
	return false
}

// Wait waits until the target's agent is in one of the states asked for and returns its pane.
// It follows that agent in that pane: it ends with agent_not_running when either goes.
func (c *Ctl) Wait(ctx context.Context, opts WaitOptions) (panestate.Pane, error) {
	p, err := c.Resolve(ctx, opts.Target)
	if err != nil {
		return p, err
	}
	return c.WaitPane(ctx, p, opts)
}

// WaitPane is Wait for an agent already resolved.
func (c *Ctl) WaitPane(ctx context.Context, p panestate.Pane, opts WaitOptions) (panestate.Pane, error) {
	until := opts.Until
	if len(until) == 0 {
		until = DefaultUntil
	}
	paneID, agent := p.ID, p.Agent()
	start, began := keyOf(p), time.Now()
	done := func(p panestate.Pane) bool {
		settled := opts.Settle > 0 && time.Since(began) >= opts.Settle
		return UntilMatches(until, attention.Shown(p)) && (!opts.Changed || keyOf(p) != start || settled)
	}
	if done(p) {
		return p, nil
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
	go c.Tmux.WaitLoop(ctx, panestate.SignalChannel, wake, waitBackstop)
	tick := time.NewTicker(waitBackstop)
	defer tick.Stop()
	for {
		// Read after the waiter started, and after every wake-up: a change between the last read
		// and the waiter's start is seen here rather than lost.
		p, err := panestate.Read(ctx, c.Tmux, paneID)
		if err != nil {
			if ctx.Err() != nil {
				return p, ctx.Err()
			}
			if coded.CodeOf(err) == tmux.CodePaneNotFound {
				return p, coded.Errorf(coded.AgentNotRunning, "pane %s closed while waiting for %s", paneID, agent)
			}
			return p, err
		}
		if p.Agent() != agent {
			now := p.Agent()
			if now == "" {
				return p, coded.Errorf(coded.AgentNotRunning, "%s left pane %s (%s) while waiting for it", agent, paneID, p.Target())
			}
			return p, coded.Errorf(coded.AgentNotRunning, "%s in pane %s (%s) was replaced by %s while waiting for it", agent, paneID, p.Target(), now)
		}
		if done(p) {
			return p, nil
		}
		select {
		case <-wake:
		case <-tick.C:
		case <-deadline:
			return p, coded.Errorf(coded.Timeout, "timed out after %s waiting for %s in pane %s (%s) to be %s; it is %s", opts.Timeout, agent, paneID, p.Target(), OrList(until), ShownOrNone(p))
		case <-ctx.Done():
			return p, ctx.Err()
		}
	}
}

// OrList writes states as people say them: "idle", "idle or done", "idle, done or blocked".
func OrList(words []string) string {
	if len(words) <= 1 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// ValidUntil says whether a state can end a wait.
func ValidUntil(s string) bool { return attention.ValidState(s) }
