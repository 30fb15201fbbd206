package attention

import (
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmux"
)

func pane(id, window, session, agent, state, done, since string) panestate.Pane {
	return panestate.Pane{ID: id, WindowID: window, SessionID: session, Options: map[string]string{
		panestate.OptName: agent, panestate.OptState: state, panestate.OptDone: done, panestate.OptStateSince: since,
	}}
}

func TestShownFrom(t *testing.T) {
	for _, c := range []struct{ agent, state, done, want string }{
		{"", "", "", ""},
		{"claude", "idle", "", "idle"},
		{"claude", "idle", "claude", "done"},
		{"claude", "working", "claude", "working"}, // a new turn: done no longer holds
		{"codex", "idle", "claude", "idle"},        // another agent took the pane: not its done
		{"claude", "", "", "unknown"},
		{"claude", "blocked", "", "blocked"},
	} {
		if got := ShownFrom(c.agent, c.state, c.done); got != c.want {
			t.Errorf("ShownFrom(%q, %q, %q) = %q, want %q", c.agent, c.state, c.done, got, c.want)
		}
	}
}

func TestRankOrder(t *testing.T) {
	for i := 1; i < len(States); i++ {
		if Rank(States[i-1]) <= Rank(States[i]) {
			t.Errorf("%s should outrank %s", States[i-1], States[i])
		}
	}
	if Rank("") != -1 || Rank("sleeping") != -1 || ValidState("sleeping") {
		t.Error("unknown words must not rank")
	}
}

func TestDoneAfter(t *testing.T) {
	for _, c := range []struct {
		name               string
		agent, state, done string
		completed, inView  bool
		want               string
	}{
		{"finished out of view", "claude", "idle", "", true, false, "claude"},
		{"finished in view", "claude", "idle", "", true, true, ""},
		{"done, then looked at", "claude", "idle", "claude", false, true, ""},
		{"done, still not looked at", "claude", "idle", "claude", false, false, "claude"},
		{"done, new turn", "claude", "working", "claude", false, false, ""},
		{"done, agent replaced", "codex", "idle", "claude", false, false, ""},
		{"done, agent gone", "", "", "claude", false, false, ""},
		{"nothing", "claude", "working", "", false, false, ""},
	} {
		if got := DoneAfter(c.agent, c.state, c.done, c.completed, c.inView); got != c.want {
			t.Errorf("%s: DoneAfter = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestMarkDone(t *testing.T) {
	panes := []panestate.Pane{
		pane("%1", "@1", "$1", "claude", "idle", "", "1"),
		pane("%2", "@2", "$1", "codex", "idle", "codex", "1"),
		pane("%3", "@3", "$1", "gemini", "working", "", "1"),
	}
	out, cmds := MarkDone(panes, map[string]bool{"%1": true}, func(id string) bool { return id == "%2" })
	if Shown(out[0]) != "done" || Shown(out[1]) != "idle" || Shown(out[2]) != "working" {
		t.Fatalf("shown: %s %s %s", Shown(out[0]), Shown(out[1]), Shown(out[2]))
	}
	if panes[0].Options[panestate.OptDone] != "" {
		t.Error("MarkDone changed its input")
	}
	got := make([]string, len(cmds))
	for i, c := range cmds {
		got[i] = strings.Join(c, " ")
	}
	want := []string{"set-option -pq -t %1 @agent_done claude", "set-option -pqu -t %2 @agent_done"}
	for _, c := range tmux.SignalCmds(panestate.SignalChannel) {
		want = append(want, strings.Join(c, " "))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("cmds:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, cmds := MarkDone(out, nil, func(string) bool { return false }); len(cmds) != 0 {
		t.Errorf("a look where nothing moved wrote %v", cmds)
	}
}

func TestRollup(t *testing.T) {
	panes := []panestate.Pane{
		pane("%1", "@1", "$1", "claude", "idle", "claude", "1"),
		pane("%2", "@1", "$1", "codex", "working", "", "1"),
		pane("%3", "@2", "$1", "", "", "", ""),
		pane("%4", "@3", "$2", "gemini", "blocked", "", "1"),
		pane("%4", "@3", "$3", "gemini", "blocked", "", "1"), // the same window linked into $3
		pane("%5", "@4", "$2", "amp", "idle", "", "1"),
	}
	r := Rollup(panes)
	if r.Windows["@1"] != "done" || r.Windows["@3"] != "blocked" || r.Windows["@4"] != "idle" {
		t.Errorf("windows: %v", r.Windows)
	}
	if _, ok := r.Windows["@2"]; ok {
		t.Error("a window without agents has no state")
	}
	if r.Sessions["$1"] != "done" || r.Sessions["$2"] != "blocked" || r.Sessions["$3"] != "blocked" {
		t.Errorf("sessions: %v", r.Sessions)
	}
	g := r.Global
	if g[OptCountPrefix+"blocked"] != "1" || g[OptCountPrefix+"done"] != "1" || g[OptCountPrefix+"working"] != "1" ||
		g[OptCountPrefix+"idle"] != "1" || g[OptCountPrefix+"agents"] != "4" || g[OptServerState] != "blocked" {
		t.Errorf("global: %v", g)
	}
	if g[OptSummaryText] != "!1 ✓1 ●1 ○1" {
		t.Errorf("plain summary %q", g[OptSummaryText])
	}
	if g[OptSummary] != "#[fg=red]!1#[fg=default] #[fg=green]✓1#[fg=default] #[fg=yellow]●1#[fg=default] ○1" {
		t.Errorf("summary %q", g[OptSummary])
	}
	empty := Rollup(nil)
	if empty.Global[OptSummary] != "" || empty.Global[OptCountPrefix+"agents"] != "0" || empty.Global[OptServerState] != "" {
		t.Errorf("no agents: %v", empty.Global)
	}
}

func TestChanges(t *testing.T) {
	old := Published{Windows: map[string]string{"@1": "working", "@2": "idle"}, Sessions: map[string]string{"$1": "working"},
		Global: map[string]string{OptServerState: "working"}}
	new := Published{Windows: map[string]string{"@1": "working", "@3": "blocked"}, Sessions: map[string]string{"$1": "blocked"},
		Global: map[string]string{OptServerState: "blocked"}}
	var got []string
	for _, c := range Changes(old, new) {
		got = append(got, strings.Join(c, " "))
	}
	s := strings.Join(got, "\n")
	for _, want := range []string{
		"set-option -wq -t @3 @agent_window_state blocked",
		"set-option -wq -t @3 @agent_window_badge #[fg=red]!#[fg=default]",
		"set-option -wqu -t @2 @agent_window_state",
		"set-option -q -t $1 @agent_session_state blocked",
		"set-option -gq @agent-wizard-state blocked",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in:\n%s", want, s)
		}
	}
	if strings.Contains(s, "@1 ") {
		t.Errorf("an unchanged window was written:\n%s", s)
	}
	if len(Changes(new, new)) != 0 {
		t.Error("no change must write nothing")
	}
	existing := old.Existing([]panestate.Pane{pane("%1", "@1", "$9", "", "", "", "")})
	if _, ok := existing.Windows["@2"]; ok || len(existing.Sessions) != 0 {
		t.Errorf("closed windows and sessions must be dropped: %+v", existing)
	}
}

func TestNext(t *testing.T) {
	panes := []panestate.Pane{
		pane("%1", "@1", "$1", "a", "idle", "a", "300"),   // done
		pane("%2", "@2", "$1", "b", "blocked", "", "200"), // blocked later
		pane("%3", "@3", "$1", "c", "blocked", "", "100"), // blocked first
		pane("%4", "@4", "$1", "d", "working", "", "50"),
		pane("%5", "@5", "$1", "e", "idle", "", "10"),
	}
	for _, c := range []struct{ current, want string }{
		{"%5", "%3"}, {"%3", "%2"}, {"%2", "%1"}, {"%1", "%3"}, {"", "%3"},
	} {
		got, ok := Next(panes, c.current)
		if !ok || got.ID != c.want {
			t.Errorf("Next from %s = %s, want %s", c.current, got.ID, c.want)
		}
	}
	if _, ok := Next(panes[3:], "%4"); ok {
		t.Error("nothing needs attention: no next")
	}
}
