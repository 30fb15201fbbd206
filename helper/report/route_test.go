package report

import "testing"

func TestRoute(t *testing.T) {
	// %1 runs the first Codex (session A, whose daemon runs every Codex's hooks with %1's
	// environment), %2 a second Codex, %3 a shell; the daemon itself runs in no pane.
	panes := []PaneSeen{
		{ID: "%1", PID: 100, SessionID: "A", SessionAgent: "codex"},
		{ID: "%2", PID: 200},
		{ID: "%3", PID: 300},
	}
	running := map[int]bool{100: true, 200: true}
	runs := func(pid int) bool { return running[pid] }
	descends := func(pid, ancestor int) bool { return pid == ancestor+1 } // pid N+1 runs under pane pid N
	tests := []struct {
		name  string
		q     RouteQuery
		own   string
		panes []PaneSeen
		want  string
		ok    bool
	}{
		{"the pane that reported the session", RouteQuery{Agent: "codex", SessionID: "A", Parent: 9999}, "%1", panes, "%1", true},
		{"a new session: the one pane running codex without one", RouteQuery{Agent: "codex", SessionID: "B", SessionStart: "startup", Parent: 9999}, "%1", panes, "%2", true},
		{"the hook's parent runs in a pane", RouteQuery{Agent: "codex", SessionID: "B", Parent: 201}, "%1", panes, "%2", true},
		{"own pane holds no other session: trusted", RouteQuery{Agent: "codex", SessionID: "B", Parent: 9999}, "%2", panes, "%2", true},
		{"no session in the payload: own pane", RouteQuery{Agent: "codex", Parent: 9999}, "%1", panes, "%1", true},
		{"a session moving on where two panes hold one: nothing written", RouteQuery{Agent: "codex", SessionID: "C", SessionStart: "clear", Parent: 9999}, "%2", []PaneSeen{
			{ID: "%1", PID: 100, SessionID: "A", SessionAgent: "codex"}, {ID: "%2", PID: 200, SessionID: "B", SessionAgent: "codex"}}, "", false},
		{"two fresh panes: no single one, nothing written", RouteQuery{Agent: "codex", SessionID: "B", Parent: 9999}, "%1", []PaneSeen{
			{ID: "%1", PID: 100, SessionID: "A", SessionAgent: "codex"}, {ID: "%2", PID: 200}, {ID: "%4", PID: 100}}, "", false},
		{"a session moving on in the one pane holding one", RouteQuery{Agent: "codex", SessionID: "C", SessionStart: "clear", Parent: 9999}, "%9", panes, "%1", true},
		{"own pane gone: the fresh pane", RouteQuery{Agent: "codex", SessionID: "B", Parent: 9999}, "%9", panes, "%2", true},
		{"no pane runs the agent", RouteQuery{Agent: "claude", SessionID: "Z", Parent: 9999}, "%9", panes, "", false},
	}
	for _, tt := range tests {
		got, ok := Route(tt.q, tt.own, tt.panes, descends, runs)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: got %q %t, want %q %t", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}
