package panestate

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
)

func TestRecordRoundTripsThroughOptions(t *testing.T) {
	r := report.Record{
		Source: "integration:claude", Kind: "claude", ReportedState: "working", Message: "editing main.go",
		Detected: "claude", DetectedState: "blocked",
		SessionID: "abc", SessionPath: "/p/s.jsonl", SessionStart: "resume", SessionSource: "integration:claude", SessionAgent: "claude",
		Resume:       []string{"claude", "--resume", "abc", "--model", "a b", "k=v"},
		ResumeSource: "integration:claude", ResumeAgent: "claude",
		Seq: report.Book{}.Record("integration:claude", 42),
	}
	opts := OptionsFromRecord(map[string]string{}, r, 1000)
	if got := RecordFromOptions(opts); !reflect.DeepEqual(got, r) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, r)
	}
	if opts[OptName] != "claude" || opts[OptState] != "blocked" || opts[OptStateSince] != "1000" {
		t.Errorf("effective options = %q %q %q", opts[OptName], opts[OptState], opts[OptStateSince])
	}
	// The time of the last change moves only when the agent or the state does.
	r.Message = "other"
	again := OptionsFromRecord(opts, r, 2000)
	if again[OptStateSince] != "1000" {
		t.Errorf("state_since moved on a message change: %s", again[OptStateSince])
	}
	r.ReportedState, r.DetectedState = "idle", "idle"
	moved := OptionsFromRecord(again, r, 3000)
	if moved[OptStateSince] != "3000" {
		t.Errorf("state_since did not move on a state change: %s", moved[OptStateSince])
	}
	// No agent: everything is cleared, the time too.
	gone := OptionsFromRecord(moved, report.AgentGone(r), 4000)
	if gone[OptName] != "" || gone[OptState] != "" || gone[OptStateSince] != "" || gone[OptResume] != "" {
		t.Errorf("after the agent went: %v", gone)
	}
}

func TestWriteCmdsOnlyWhatChanged(t *testing.T) {
	old := map[string]string{OptName: "a", OptState: "idle", OptMessage: "m"}
	next := map[string]string{OptName: "a", OptState: "working", OptMessage: ""}
	cmds := WriteCmds("%3", old, next)
	var got []string
	for _, c := range cmds {
		got = append(got, strings.Join(c, " "))
	}
	want := []string{"set-option -p -t %3 @agent_state working", "set-option -p -u -t %3 @agent_message"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("WriteCmds = %q, want %q", got, want)
	}
}

// A pane's first option comes with the mark the watcher's looks read panes by; later writes,
// and writes that only unset, leave the mark alone.
func TestWriteCmdsMarkThePaneWithItsFirstOption(t *testing.T) {
	tests := []struct {
		name      string
		old, next map[string]string
		marked    bool
	}{
		{"first option", map[string]string{}, map[string]string{OptName: "a", OptState: "idle"}, true},
		{"a restore's record on a bare pane", NoOptions(), map[string]string{OptResume: "a --resume 1", OptRestored: "5"}, true},
		{"already holding", map[string]string{OptName: "a"}, map[string]string{OptName: "a", OptState: "working"}, false},
		{"only unsets", map[string]string{OptDone: "a"}, map[string]string{OptDone: ""}, false},
		{"nothing changes", map[string]string{}, map[string]string{OptName: ""}, false},
	}
	for _, tt := range tests {
		cmds := WriteCmds("%3", tt.old, tt.next)
		marked := false
		for _, c := range cmds {
			if strings.Join(c, " ") == "set-option -p -t %3 "+OptHeld+" 1" {
				marked = true
			}
		}
		if marked != tt.marked {
			t.Errorf("%s: WriteCmds = %q, marked %t, want %t", tt.name, cmds, marked, tt.marked)
		}
	}
}

func TestParseRow(t *testing.T) {
	given := map[string]string{
		"pane_id": "%7", "session_name": "work", "session_id": "$1", "window_id": "@2", "window_index": "3",
		"window_name": "editor", "pane_index": "1", "pane_current_path": "/home/u/p", "pane_current_command": "node",
		"pane_pid": "4242", "pane_tty": "/dev/pts/3", "pane_title": "title with \x1e odd", "pane_active": "1",
		"window_active": "0", "session_attached": "1", "pane_dead": "0", "pane_width": "80", "pane_height": "24",
	}
	var fields []string
	for _, f := range paneFields {
		fields = append(fields, given[f.name])
	}
	for _, o := range Options {
		v := ""
		if o == OptName {
			v = "claude"
		}
		fields = append(fields, v)
	}
	p, err := ParseRow(strings.Join(fields, sep))
	if err != nil {
		t.Fatal(err)
	}
	if p.ID != "%7" || p.Target() != "work:3.1" || p.PID != 4242 || !p.PaneActive || p.WindowActive || p.Agent() != "claude" || p.Width != 80 {
		t.Errorf("ParseRow = %+v", p)
	}
	if _, err := ParseRow("too\x1ffew"); err == nil {
		t.Error("a short row was read")
	}
}

func TestSelectionReadsOnlyWhatItNames(t *testing.T) {
	sel := Selection{Fields: []string{"pane_current_path", "pane_pid"}, Options: []string{OptName}}
	if got, want := sel.Names(), []string{"pane_id", "pane_current_path", "pane_pid", OptName}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Names = %q, want %q", got, want)
	}
	// Text values print so they read back on every release; ids and numbers print plain.
	row := tmux.Row("#{pane_id}", tmux.Text("pane_current_path"), "#{pane_pid}", tmux.Text("@agent_name"))
	if got, want := sel.Format(), row; got != want {
		t.Errorf("Format = %q, want %q", got, want)
	}
	p, err := sel.ParseRow("%3\x1f/srv/x\x1f99\x1fcodex")
	if err != nil {
		t.Fatal(err)
	}
	if p.ID != "%3" || p.Cwd != "/srv/x" || p.PID != 99 || p.Agent() != "codex" || p.Command != "" || p.State() != "" {
		t.Errorf("ParseRow = %+v", p)
	}
	if _, err := sel.ParseRow("%3\x1f/srv/x"); err == nil {
		t.Error("a short row was read")
	}
	// Panes without an agent print nothing when the selection asks for agents only: tmux leaves
	// them out before filling the row, and an agent named "0" (false to tmux) still prints.
	sel.Filter = AgentFilter
	if got, want := strings.Join(sel.ListCmd(""), " "), "list-panes -a -f #{!=:#{@agent_name},} -F "+row; got != want {
		t.Errorf("ListCmd = %q, want %q", got, want)
	}
}

func TestAllIsEveryField(t *testing.T) {
	if got, want := len(All.Names()), len(paneFields)+len(Options); got != want {
		t.Errorf("All names %d variables, want %d", got, want)
	}
	if Format() != All.Format() {
		t.Error("Format is not All's")
	}
}

func TestCommitRefusesAPaneReadWithoutAllOptions(t *testing.T) {
	sel := Selection{Options: []string{OptName}}
	p, err := sel.ParseRow("%3\x1fclaude")
	if err != nil {
		t.Fatal(err)
	}
	// No tmux call is made: the client names no server that exists.
	c := &tmux.Client{Global: []string{"-S", "/nonexistent/taw-test.sock"}}
	if _, err := Commit(context.Background(), c, p, report.Record{}, 1, nil); err == nil || !strings.Contains(err.Error(), "without all of its options") {
		t.Errorf("Commit of a partial pane: %v", err)
	}
	full, err := All.ParseRow(strings.Repeat("\x1f", len(All.Names())-1))
	if err != nil {
		t.Fatal(err)
	}
	if full.partial {
		t.Error("a pane read with every option is marked partial")
	}
}

func TestQuitMarkIsTawsOwnIntegrationLettingGo(t *testing.T) {
	own := report.Record{Source: "integration:copilot", Kind: "copilot", ReportedState: "idle"}
	other := report.Record{Source: "my-hooks", Kind: "copilot", ReportedState: "idle"}
	free := report.Record{Detected: "copilot"}
	for _, tt := range []struct {
		name      string
		old, next report.Record
		mark      string
		ok        bool
	}{
		{"its integration releases", own, free, "copilot 5000", true},
		{"another source releases", other, free, "", false},
		{"a report holds the pane again", free, own, "", true},
		{"the holder reports again", own, own, "", true},
	} {
		mark, ok := QuitMark(tt.old, tt.next, 5000)
		if mark != tt.mark || ok != tt.ok {
			t.Errorf("%s: QuitMark = %q, %t; want %q, %t", tt.name, mark, ok, tt.mark, tt.ok)
		}
		if agent, at, ok := ParseQuit(mark); tt.mark != "" && (!ok || agent != "copilot" || at != 5000) {
			t.Errorf("%s: ParseQuit(%q) = %q, %d, %t", tt.name, mark, agent, at, ok)
		}
	}
}
