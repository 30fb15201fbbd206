package tests

import (
	"context"
	"testing"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmux"
)

// A selection's Held fields are filled only for the panes marked as holding something of taw's:
// a real tmux prints the other panes' rows brief, and both kinds read back as the panes they are.
func TestHeldFieldsOnlyForMarkedPanes(t *testing.T) {
	name, stop := startTmux(t, "held", t.TempDir(), 80, 24)
	defer stop()
	ctx := context.Background()
	c := &tmux.Client{Global: []string{"-L", name}}
	if _, err := c.Run(ctx, tmux.Cmd{"split-window", "-d", "-t", "s:0.0"}, panestate.HeldCmd("%1"),
		tmux.Cmd{"select-pane", "-t", "%1", "-T", "marked pane"}); err != nil {
		t.Fatal(err)
	}
	sel := panestate.Selection{Fields: []string{"pane_pid", "window_id"}, Held: []string{"pane_title", "pane_width"}}
	panes, err := panestate.ListSelected(ctx, c, sel)
	if err != nil {
		t.Fatal(err)
	}
	if len(panes) != 2 {
		t.Fatalf("read %d panes, want 2", len(panes))
	}
	for _, p := range panes {
		marked := p.ID == "%1"
		if p.Brief() == marked {
			t.Errorf("pane %s: brief %t, marked %t", p.ID, p.Brief(), marked)
		}
		if p.PID == 0 || p.WindowID == "" {
			t.Errorf("pane %s lacks its brief fields: %+v", p.ID, p)
		}
		if marked && (p.Title != "marked pane" || p.Width == 0) {
			t.Errorf("marked pane %s lacks its held fields: title %q width %d", p.ID, p.Title, p.Width)
		}
		if !marked && (p.Title != "" || p.Width != 0) {
			t.Errorf("unmarked pane %s has held fields: title %q width %d", p.ID, p.Title, p.Width)
		}
	}
	// The full format prints every field of any pane, marked or not.
	out, err := c.Output(ctx, "display-message", "-p", "-t", "%0", sel.FullFormat())
	if err != nil {
		t.Fatal(err)
	}
	if p, err := sel.ParseRow(out); err != nil || p.Brief() || p.Width == 0 {
		t.Errorf("full row of %%0 = %+v, %v", p, err)
	}
}
