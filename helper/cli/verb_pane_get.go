package cli

import (
	"context"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/urfave/cli/v2"
)

type paneGetOptions struct {
	Pane string
	JSON bool
}

func newPaneGetCommand(f *Factory, runF func(*paneGetOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "get",
		Usage:     "print one pane and its agent (JSON when piped or with --json)",
		ArgsUsage: "<pane> [--json]",
		Flags:     []cli.Flag{jsonFlag()},
		Action: func(c *cli.Context) error {
			positional, _, _ := splitArgs(c)
			if len(positional) != 1 {
				return UsageErrorf("pane get takes one pane: taw pane get <pane>")
			}
			opts := &paneGetOptions{Pane: positional[0], JSON: wantJSON(f, c)}
			if runF != nil {
				return runF(opts)
			}
			return paneGetRun(c.Context, f, opts)
		},
	}
}

func paneGetRun(ctx context.Context, f *Factory, opts *paneGetOptions) error {
	id, err := f.ResolvePane(ctx, opts.Pane)
	if err != nil {
		return err
	}
	p, err := panestate.Read(ctx, f.Tmux(), id)
	if err != nil {
		return err
	}
	if !opts.JSON {
		return writePaneCard(f.IO.Out, newPaneView(p), f.Now(), f.Getenv("HOME"))
	}
	return writeJSONLine(f.IO.Out, newPaneView(p))
}
