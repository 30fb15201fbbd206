package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/panestate"
)

// The read verbs ask tmux for paneViewSelection only, so a view made from it must be the view
// made from every fact of the pane.
func TestPaneViewSelectionHoldsWhatTheViewReads(t *testing.T) {
	value := func(name string) string {
		switch name {
		case "pane_id":
			return "%5"
		case "pane_active", "window_active", "pane_dead", "session_attached", "alternate_on":
			return "1"
		case panestate.OptName, panestate.OptDone:
			return "claude"
		case panestate.OptState:
			return "idle"
		case panestate.OptResume:
			return "claude --resume abc"
		}
		return fmt.Sprint(len(name)*7 + int(name[len(name)-1]))
	}
	row := func(sel panestate.Selection) string {
		var vals []string
		for _, n := range sel.Names() {
			vals = append(vals, value(n))
		}
		return strings.Join(vals, "\x1f")
	}
	full, err := panestate.All.ParseRow(row(panestate.All))
	if err != nil {
		t.Fatal(err)
	}
	narrow, err := paneViewSelection.ParseRow(row(paneViewSelection))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(newPaneView(full))
	got, _ := json.Marshal(newPaneView(narrow))
	if string(got) != string(want) {
		t.Errorf("view from the selection:\n%s\nwant the view from every fact:\n%s", got, want)
	}
	if !strings.Contains(string(want), `"state":"done"`) || !strings.Contains(string(want), `"resume":["claude","--resume","abc"]`) {
		t.Errorf("the test's pane does not reach every field: %s", want)
	}
}
