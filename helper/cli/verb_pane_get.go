package cli

import (
	"context"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/urfave/cli/v2"
)

// getOptions are taw pane get's and taw agent get's: the pane or agent named, and the output's form.
type getOptions struct {
	Target string
	JSON   bool
}

func (f *Factory) paneGet(c *cli.Context, pane string) error {
	return getRun(c.Context, f, &getOptions{Target: pane, JSON: wantJSON(f, c)}, func(ctx context.Context, target string) (panestate.Pane, error) {
		id, err := f.ResolvePane(ctx, target)
		if err != nil {
			return panestate.Pane{}, err
		}
		return panestate.Read(ctx, f.Tmux(), id)
	})
}

// getRun prints the pane that find makes of the target, as a card or as a JSON line.
func getRun(ctx context.Context, f *Factory, opts *getOptions, find func(ctx context.Context, target string) (panestate.Pane, error)) error {
	p, err := find(ctx, opts.Target)
	if err != nil {
		return err
	}
	if !opts.JSON {
		return writePaneCard(f.IO.Out, newPaneView(p), f.Now(), f.Getenv("HOME"))
	}
	return writeJSONLine(f.IO.Out, newPaneView(p))
}
