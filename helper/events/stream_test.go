package events

import (
	"reflect"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/panestate"
)

func pane(id, agent, state, dialog string) panestate.Pane {
	return panestate.Pane{ID: id, SessionName: "main", SessionID: "$0", WindowID: "@0",
		Options: map[string]string{panestate.OptName: agent, panestate.OptState: state, panestate.OptPrompt: dialog}}
}

func TestDiff(t *testing.T) {
	at := time.UnixMilli(1)
	dialog := `{"kind":"permission","question":"Proceed?"}`
	tests := []struct {
		name          string
		before, after Snapshot
		want          []string
	}{
		{"nothing changed", Snapshot{"%1": pane("%1", "claude", "idle", "")}, Snapshot{"%1": pane("%1", "claude", "idle", "")}, nil},
		{"a pane is made", Snapshot{}, Snapshot{"%2": pane("%2", "", "", "")}, []string{"pane_created"}},
		{"an agent appears in it", Snapshot{"%2": pane("%2", "", "", "")}, Snapshot{"%2": pane("%2", "claude", "idle", "")}, []string{"agent_appeared", "state_changed"}},
		{"it blocks", Snapshot{"%2": pane("%2", "claude", "working", "")}, Snapshot{"%2": pane("%2", "claude", "blocked", dialog)}, []string{"state_changed", "blocked"}},
		{"its dialog is recorded after", Snapshot{"%2": pane("%2", "claude", "blocked", "")}, Snapshot{"%2": pane("%2", "claude", "blocked", dialog)}, []string{"blocked"}},
		{"it finishes", Snapshot{"%2": pane("%2", "claude", "working", "")}, Snapshot{"%2": pane("%2", "claude", "idle", "")}, []string{"state_changed", "finished"}},
		{"its pane closes", Snapshot{"%2": pane("%2", "claude", "idle", "")}, Snapshot{}, []string{"agent_gone", "pane_closed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Diff(tt.before, tt.after, at)
			if !reflect.DeepEqual(names(got), tt.want) {
				t.Errorf("events = %v, want %v", names(got), tt.want)
			}
			for _, e := range got {
				if e.Name == "blocked" && (e.Prompt == nil || e.Prompt.Question != "Proceed?") {
					t.Errorf("blocked without its dialog: %+v", e)
				}
			}
		})
	}
}

func TestFilter(t *testing.T) {
	f, err := ParseFilter([]string{"blocked,finished", "agent=claude"})
	if err != nil {
		t.Fatal(err)
	}
	if !f.Keep(Event{Name: "blocked", Agent: "claude"}) || f.Keep(Event{Name: "blocked", Agent: "codex"}) || f.Keep(Event{Name: "pane_created", Agent: "claude"}) {
		t.Errorf("filter %+v keeps the wrong events", f)
	}
	for _, bad := range []string{"sometimes", "state=asleep", "pane="} {
		if _, err := ParseFilter([]string{bad}); err == nil {
			t.Errorf("filter %q taken", bad)
		}
	}
}
