package cli

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/agentctl"
	"github.com/taw-tmux/taw/helper/attention"
	"github.com/urfave/cli/v2"
)

const (
	flagChanged = "changed"
)

// waitBackstop is how often a wait reads the pane even with no wake-up.
const waitBackstop = time.Second

// defaultUntil is what a wait waits for without --until: the end of a turn, or a question.
var defaultUntil = agentctl.DefaultUntil

type agentWaitOptions = agentctl.WaitOptions

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

// untilMatches says whether a state ends the wait (see agentctl.UntilMatches).
func untilMatches(until []string, state string) bool { return agentctl.UntilMatches(until, state) }

func orList(words []string) string { return agentctl.OrList(words) }

func agentWaitRun(ctx context.Context, f *Factory, opts *agentWaitOptions) error {
	if err := needTarget(opts.Target); err != nil {
		return err
	}
	p, err := f.agentCtl().Wait(ctx, *opts)
	if err != nil {
		return err
	}
	return writeJSONLine(f.IO.Out, newPaneView(p))
}
