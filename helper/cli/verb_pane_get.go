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

func (f *Factory) paneGet(c *cli.Context, pane string) error {
	return paneGetRun(c.Context, f, &paneGetOptions{Pane: pane, JSON: wantJSON(f, c)})
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
