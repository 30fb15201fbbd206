package cli

import (
	"context"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
)

const flagLines = "lines"

type agentReadOptions struct {
	Target string
	Lines  int // 0: the visible screen
	JSON   bool
}

func agentReadFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: flagLines, Usage: "print the last `<n>` lines, from the history too when the screen has fewer"},
		jsonFlagSaying("print JSON"),
	}
}

func (f *Factory) agentRead(c *cli.Context, target string) error {
	opts := &agentReadOptions{Target: target, JSON: c.Bool(flagJSON)}
	if c.IsSet(flagLines) {
		n, err := strconv.Atoi(c.String(flagLines))
		if err != nil || n < 1 || n > 100000 {
			return InvalidValuef("invalid --lines %q (expected a number from 1 to 100000)", c.String(flagLines))
		}
		opts.Lines = n
	}
	return agentReadRun(c.Context, f, opts)
}

func agentReadRun(ctx context.Context, f *Factory, opts *agentReadOptions) error {
	p, err := resolveAgent(ctx, f, opts.Target)
	if err != nil {
		return err
	}
	lines, err := f.agentCtl().Read(ctx, p, opts.Lines)
	if err != nil {
		return err
	}
	if !opts.JSON {
		if len(lines) == 0 {
			return nil
		}
		_, err := f.IO.Out.Write([]byte(strings.Join(lines, "\n") + "\n"))
		return err
	}
	return writeJSONLine(f.IO.Out, struct {
		PaneID string   `json:"pane_id"`
		Target string   `json:"target"`
		Agent  string   `json:"agent"`
		State  string   `json:"state"`
		Lines  []string `json:"lines"`
	}{p.ID, p.Target(), p.Agent(), shownOrNone(p), lines})
}
