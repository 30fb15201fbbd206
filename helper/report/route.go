package report

// PaneSeen is what routing knows of one pane: its id, its first process and the session it
// holds.
type PaneSeen struct {
	ID           string
	PID          int
	SessionID    string
	SessionAgent string
}

// RouteQuery is a hook report whose $TMUX_PANE cannot be trusted (its process does not run in
// that pane: Codex runs hooks from a daemon that keeps the environment of the first Codex).
type RouteQuery struct {
	Agent     string
	SessionID string
	// SessionStart is why the session started (startup, resume, clear, compact), "" when the
	// event does not say.
	SessionStart string
	// Parent is the process the hook runs under, 0 when unknown.
	Parent int
}

// Route finds the pane a hook report belongs to, or says there is no single one: then nothing
// is written, since another pane's state must never be overwritten.
//
//  1. The pane that last reported this agent's session.
//  2. The pane whose processes the hook's parent is one of.
//  3. own, the pane the hook's $TMUX_PANE names, unless it holds another session of the agent:
//     nothing says the report is not its own.
//  4. The one pane running the agent that fits the event: for a session begun by clear,
//     resume or compact, a pane already holding another session of the agent (the same process
//     moving on); otherwise a pane holding none of its sessions yet (a new process).
//
// descends(pid, ancestor) says whether pid runs under ancestor; runs(pid) whether the agent is in
// front of the pane whose first process is pid.
func Route(q RouteQuery, own string, panes []PaneSeen, descends func(pid, ancestor int) bool, runs func(panePID int) bool) (string, bool) {
	if q.SessionID != "" {
		for _, p := range panes {
			if p.SessionAgent == q.Agent && p.SessionID == q.SessionID {
				return p.ID, true
			}
		}
	}
	if q.Parent > 1 {
		for _, p := range panes {
			if p.PID > 1 && descends(q.Parent, p.PID) {
				return p.ID, true
			}
		}
	}
	for _, p := range panes {
		if p.ID != own {
			continue
		}
		other := q.SessionID != "" && p.SessionAgent == q.Agent && p.SessionID != "" && p.SessionID != q.SessionID
		if !other {
			return own, true
		}
	}
	moving := q.SessionStart == "clear" || q.SessionStart == "resume" || q.SessionStart == "compact"
	found := ""
	n := 0
	for _, p := range panes {
		holds := p.SessionAgent == q.Agent && p.SessionID != ""
		if holds != moving || !runs(p.PID) {
			continue
		}
		found = p.ID
		n++
	}
	if n != 1 {
		return "", false
	}
	return found, true
}
