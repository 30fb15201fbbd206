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
	screen, err := captureScreen(ctx, f.Tmux(), p.ID, opts.Lines)
	if err != nil {
		return err
	}
	lines := screenLines(screen, opts.Lines)
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

// screenLines are the screen's lines without the blank ones under the last text, the last n
// of them when n > 0.
func screenLines(screen string, n int) []string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	if n > 0 && len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	if lines == nil {
		lines = []string{}
	}
	return lines
}
