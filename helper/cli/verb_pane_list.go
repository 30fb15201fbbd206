package cli

import (
	"context"

	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/urfave/cli/v2"
)

const flagSession = "session"

type paneListOptions struct {
	Session string // only this session's panes; "" for all
	JSON    bool
}

func (f *Factory) paneList(c *cli.Context) error {
	return paneListRun(c.Context, f, &paneListOptions{Session: c.String(flagSession), JSON: wantJSON(f, c)})
}

func paneListRun(ctx context.Context, f *Factory, opts *paneListOptions) error {
	panes, err := panestate.ListSelected(ctx, f.Tmux(), paneViewSelection)
	if err != nil {
		return err
	}
	views := []paneView{}
	found := opts.Session == ""
	for _, p := range panes {
		if opts.Session != "" && p.SessionName != opts.Session && p.SessionID != opts.Session {
			continue
		}
		found = true
		views = append(views, newPaneView(p))
	}
	if !found {
		return Errorf(coded.SessionNotFound, "no session %q on this server: run 'tmux list-sessions' for the names", opts.Session)
	}
	if !opts.JSON {
		return writeTable(f.IO.Out, []paneColumn{colPane, colTarget, colAgent, colState, colFor, colDir, colCommand}, views, f.Now(), f.Getenv("HOME"))
	}
	return writeJSONLine(f.IO.Out, struct {
		Panes []paneView `json:"panes"`
	}{views})
}
