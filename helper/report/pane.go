package report

// States an agent can report. "done" is never reported: it is derived on the read side.
const (
	StateIdle    = "idle"
	StateWorking = "working"
	StateBlocked = "blocked"
	StateUnknown = "unknown"
)

// ValidState says whether s is a state a report may carry.
func ValidState(s string) bool {
	switch s {
	case StateIdle, StateWorking, StateBlocked, StateUnknown:
		return true
	}
	return false
}

// AtWork says whether an agent in state s is at a turn: working, or blocked on a dialog of it.
func AtWork(s string) bool { return s == StateWorking || s == StateBlocked }

// Record is what taw knows of one pane's agent. Each field lives in one pane option (see package
// panestate); the effective agent and state are derived from it by Effective.
type Record struct {
	// The hook that holds the pane: its source, the agent it named (@agent_reported_kind) and
	// the state and message it last reported.
	Source        string
	Kind          string
	ReportedState string
	Message       string

	// What the pane watcher read from the process and the screen.
	Detected      string
	DetectedState string

	// The agent's own session, and who reported it.
	SessionID     string
	SessionPath   string
	SessionStart  string
	SessionSource string
	SessionAgent  string

	// The reported resume command, and the source and agent it belongs to.
	Resume       []string
	ResumeSource string
	ResumeAgent  string

	Seq Book
}

// Effective is the agent people see and its state: the holder's when a hook holds the pane, the
// watcher's otherwise; empty when there is no agent.
func (r Record) Effective() (agent, state string) {
	if r.Source != "" {
		state = r.ReportedState
		// A blocker the watcher sees on screen for the same agent shows, whatever the hook said
		// last: hooks miss permission prompts more often than screens lie about them.
		if r.Detected == r.Kind && r.DetectedState == StateBlocked {
			state = StateBlocked
		}
		// A holder with no word on the state (a restore puts the record back as unknown until
		// the agent reports) shows what the screen of the same agent says.
		if (state == "" || state == StateUnknown) && r.Detected == r.Kind && r.DetectedState != "" {
			state = r.DetectedState
		}
		if state == "" {
			state = StateUnknown
		}
		return r.Kind, state
	}
	if r.Detected != "" {
		state = r.DetectedState
		if state == "" {
			state = StateIdle
		}
		return r.Detected, state
	}
	return "", ""
}

// Kind of report.
type Verb int

const (
	ReportAgent Verb = iota
	ReportSession
	ReleaseAgent
)

// Report is one validated call of report-agent, report-agent-session or release-agent. Agent is
// already canonical.
type Report struct {
	Verb    Verb
	Source  string
	Agent   string
	State   string  // report-agent only
	Message *string // nil: not given
	// MessageHint: Message does not replace one the same source left with the same state (a
	// generic notification after the event that named the command).
	MessageHint bool
	Seq         *uint64 // nil: not given

	SessionID    *string
	SessionPath  *string
	SessionStart *string
	Resume       []string // empty: no command
}

// Outcome of applying a report.
type Outcome struct {
	InOrder bool   // false: not taken, the record is unchanged
	Code    string // "resume_not_accepted" when all but the command was applied
}

// Apply is the whole write side of the contract: the seq book, who holds the pane, and when a
// resume command is kept and when it goes. It returns the new record.
func Apply(r Record, rep Report) (Record, Outcome) {
	if !r.Seq.InOrder(rep.Source, rep.Seq) {
		return r, Outcome{InOrder: false}
	}
	out := Outcome{InOrder: true}
	switch rep.Verb {
	case ReportAgent:
		r = take(r, rep.Source, rep.Agent)
		keep := rep.MessageHint && r.Message != "" && r.ReportedState == rep.State
		r.ReportedState = rep.State
		if rep.Message != nil && !keep {
			r.Message = *rep.Message
		}
		r = applySession(r, rep)
		if len(rep.Resume) > 0 {
			r.Resume, r.ResumeSource, r.ResumeAgent = rep.Resume, rep.Source, rep.Agent
		}
	case ReportSession:
		r = applySession(r, rep)
		if len(rep.Resume) > 0 {
			if mayResume(r, rep.Source, rep.Agent) {
				r.Resume, r.ResumeSource, r.ResumeAgent = rep.Resume, rep.Source, rep.Agent
			} else {
				out.Code = "resume_not_accepted"
			}
		}
	case ReleaseAgent:
		if owns(r, rep.Source, rep.Agent) {
			return leave(r, rep.Source), out
		}
	}
	if rep.Seq != nil {
		r.Seq = r.Seq.Record(rep.Source, *rep.Seq)
	}
	return r, out
}

// take makes source and agent the pane's holder. Another source or another agent taking the pane
// ends what the previous one had: its command, its session and (for another source) its numbers.
func take(r Record, source, agent string) Record {
	if r.Source == source && r.Kind == agent {
		return r // the holder reporting again
	}
	if r.Source != "" && r.Source != source {
		r.Seq = r.Seq.Drop(r.Source)
	}
	r.Message = ""
	if r.ResumeSource != source || r.ResumeAgent != agent {
		r.Resume, r.ResumeSource, r.ResumeAgent = nil, "", ""
	}
	if r.SessionSource != source || r.SessionAgent != agent {
		r = clearSession(r)
	}
	r.Source, r.Kind = source, agent
	return r
}

// mayResume: the source holds the pane for this agent, or no hook holds it and the agent is the
// one the watcher names from the program in front of the pane.
func mayResume(r Record, source, agent string) bool {
	if r.Source != "" {
		return r.Source == source && r.Kind == agent
	}
	return r.Detected != "" && r.Detected == agent
}

// owns says whether a release from source for agent has anything to hand back.
func owns(r Record, source, agent string) bool {
	return (r.Source == source && r.Kind == agent) ||
		(r.ResumeSource == source && r.ResumeAgent == agent) ||
		(r.SessionSource == source && r.SessionAgent == agent)
}

// leave is source's agent leaving the pane: what it held goes, and its numbers go with it.
func leave(r Record, source string) Record {
	if r.Source == source {
		r.Source, r.Kind, r.ReportedState, r.Message = "", "", "", ""
	}
	if r.ResumeSource == source {
		r.Resume, r.ResumeSource, r.ResumeAgent = nil, "", ""
	}
	if r.SessionSource == source {
		r = clearSession(r)
	}
	r.Seq = r.Seq.Drop(source)
	return r
}

// AgentGone is the agent's process ending (the pane's shell is back at its prompt, or the process
// a restore started has ended): the agent, its state, its command and its session are cleared,
// and the numbers of every source that spoke for it go with it.
func AgentGone(r Record) Record {
	for _, s := range []string{r.Source, r.ResumeSource, r.SessionSource} {
		if s != "" {
			r.Seq = r.Seq.Drop(s)
		}
	}
	r.Source, r.Kind, r.ReportedState, r.Message = "", "", "", ""
	r.Resume, r.ResumeSource, r.ResumeAgent = nil, "", ""
	r.Detected, r.DetectedState = "", ""
	return clearSession(r)
}

func applySession(r Record, rep Report) Record {
	if rep.SessionID == nil && rep.SessionPath == nil && rep.SessionStart == nil {
		return r
	}
	if r.SessionSource != rep.Source || r.SessionAgent != rep.Agent {
		r = clearSession(r)
	}
	if rep.SessionID != nil {
		r.SessionID = *rep.SessionID
	}
	if rep.SessionPath != nil {
		r.SessionPath = *rep.SessionPath
	}
	if rep.SessionStart != nil {
		r.SessionStart = *rep.SessionStart
	}
	r.SessionSource, r.SessionAgent = rep.Source, rep.Agent
	return r
}

func clearSession(r Record) Record {
	r.SessionID, r.SessionPath, r.SessionStart, r.SessionSource, r.SessionAgent = "", "", "", "", ""
	return r
}
