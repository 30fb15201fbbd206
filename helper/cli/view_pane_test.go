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

// A blocked agent's dialog comes from its record, which the read verbs' selection holds, and
// with none on record from what its hook said.
func TestPaneViewOfABlockedAgentReadsTheRecord(t *testing.T) {
	values := map[string]string{
		"pane_id": "%5", panestate.OptName: "claude", panestate.OptState: "blocked",
		panestate.OptSource: "integration:claude", panestate.OptReportedState: "blocked",
		panestate.OptMessage: "Bash: npm test",
		panestate.OptPrompt:  `{"kind":"question","question":"Which colour?","options":[{"number":1,"label":"Red"}],"source":"screen"}`,
	}
	row := func(sel panestate.Selection) string {
		var vals []string
		for _, n := range sel.Names() {
			vals = append(vals, values[n])
		}
		return strings.Join(vals, "\x1f")
	}
	p, err := paneViewSelection.ParseRow(row(paneViewSelection))
	if err != nil {
		t.Fatal(err)
	}
	if v := newPaneView(p); v.Prompt == nil || v.Prompt.Question != "Which colour?" {
		t.Errorf("prompt = %+v, want the recorded dialog", v.Prompt)
	}
	values[panestate.OptPrompt] = ""
	p, _ = paneViewSelection.ParseRow(row(paneViewSelection))
	if v := newPaneView(p); v.Prompt == nil || v.Prompt.Question != "Bash: npm test" || v.Prompt.Source != "hook" {
		t.Errorf("prompt = %+v, want the hook's message with no dialog on record", v.Prompt)
	}
}
