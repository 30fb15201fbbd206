package watch

import (
	"fmt"
	"strings"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/report"
)

// Facts are what one look found out about a pane's processes and screen, the input of Decide.
type Facts struct {
	// Known: the pane's processes could be read this look. When false nothing is decided: a
	// pane whose process table could not be read keeps what it has.
	Known bool
	// Dead: the pane's process has exited and tmux keeps the pane (remain-on-exit).
	Dead bool
	// AtPrompt: the pane's own shell holds its terminal, that is the shell is back at its prompt
	// and nothing runs in front of it.
	AtPrompt bool
	// Agent is the detected agent in front of the pane, "" for none.
	Agent string
	// Classified: the screen was read this look and State is its verdict ("" keeps the stored
	// state: a rule that says nothing, or an agent without rules).
	Classified bool
	State      string
	// ScreenLooks counts the looks in a row, since the hook's last report was taken, whose screen
	// showed ScreenState by a rule of the agent's own (not the fallback), a state the catalogue
	// lets replace the one the hook reported (agents.Agent.Corrections); the first of them was
	// ScreenFor milliseconds ago. ReportAge is the milliseconds since that report
	// (@agent_updated), -1 when unknown.
	ScreenState string
	ScreenLooks int
	ScreenFor   int64
	// ScreenStill: the screen is the very one the first of those looks read, not a frame
	// since.
	ScreenStill bool
	// CaughtUp: a look since that report saw the screen show the state it reported, by a rule
	// of the agent's own: the agent has drawn what its hook said.
	CaughtUp     bool
	ReportAge    int64
	ScreenReport string // the @agent_updated the looks were counted against
	// Quit: taw's own integration for the agent in front said, less than QuitGraceMillis ago,
	// that the person quit it (panestate.OptQuit): its process is ending.
	Quit bool
	// Allowed: the blocked report that holds the pane asked a permission that taw's own answer
	// granted, and the dialog was seen to go (panestate.AnswerTaken): the agent runs what it
	// asked, whatever its screen draws meanwhile.
	Allowed bool
	// Answered: the report that holds the pane is one taw's own answer is known to have ended
	// (its dialog was seen to go) or set off (panestate.OptAnswerTaken).
	Answered bool
}

// The screen corrects a hook of taw's own once it has shown the other state for this many
// looks in a row over this long, at least this long after the hook's report: an agent paints its
// spinner a moment after the hook that says it started, and a frame between two tools may show
// the prompt for an instant.
//
// The report's age matters only until the screen has shown the state the report said
// (Facts.CaughtUp): from then on, what the screen shows was drawn after the hook.
//
// A screen that has not changed at all between those looks (Facts.ScreenStill) needs only
// CorrectForStill: an agent at work redraws (its spinner, its timer), and a frame between two
// tools is soon drawn over, while an agent that stopped leaves its screen as it is.
//
// After taw's own answer took the dialog a blocked report asked, or set off the agent's next
// report, that report is over for certain or was made as the answer went, and the wait is
// shorter (CorrectForAnswered, no report age): only long enough that a frame drawn as the dialog
// went is not taken for the agent's state.
const (
	CorrectLooks       = 2
	CorrectFor         = 800
	CorrectForStill    = 250
	CorrectAgeMillis   = 1500
	CorrectForAnswered = 300
)

// QuitGraceMillis bounds how long an agent whose integration said it quit is shown gone while its
// process is still in front: an agent that ends its session and goes on (a new session in the
// same process that its integration did not report) is named again after it.
const QuitGraceMillis = 5000

// correctionWait is how long the screen must show its state, and how old the report must be,
// before the screen corrects it.
func correctionWait(f Facts) (forMillis, ageMillis int64) {
	if f.Answered {
		return CorrectForAnswered, 0
	}
	forMillis, ageMillis = CorrectFor, CorrectAgeMillis
	if f.ScreenStill {
		forMillis = CorrectForStill
	}
	if f.CaughtUp {
		ageMillis = 0
	}
	return forMillis, ageMillis
}

// screenCorrects says whether the screen clearly contradicts the hook that holds the pane: the
// hook is taw's own integration for the agent on screen, the catalogue says that agent's hooks
// can leave the reported state standing and the screen's state may replace it
// (agents.Agent.Corrections), and the screen has shown that state for CorrectLooks looks, long
// enough after the report. A report from any other source keeps the pane as the contract says,
// whatever the screen shows.
func screenCorrects(rec report.Record, f Facts) bool {
	a, own := ownHook(rec, f)
	if !own || f.ScreenState == "" || f.ScreenState != f.State || f.ScreenState == rec.ReportedState {
		return false
	}
	forMillis, ageMillis := correctionWait(f)
	return a.ScreenCorrects(rec.ReportedState, f.ScreenState) &&
		f.ScreenLooks >= CorrectLooks && f.ScreenFor >= forMillis && f.ReportAge >= ageMillis
}

// ownHook is the catalogue entry of the agent in front when the hook that holds the pane is taw's
// own integration for that agent: only such a hook may be corrected, never another source's.
func ownHook(rec report.Record, f Facts) (*agents.Agent, bool) {
	agent, own := strings.CutPrefix(rec.Source, "integration:")
	if !own || agent != rec.Kind || rec.Kind != f.Agent {
		return nil, false
	}
	return agents.Lookup(agent)
}

// allowedRuns says whether taw's own answer granted the permission a hook of taw's own still
// reports blocked, for an agent whose hooks leave blocked standing once a permission is allowed
// (agents.Agent.Corrections): the agent runs what it asked. Gemini CLI draws nothing for a second
// after the allow, and the screen alone would read that moment idle.
func allowedRuns(rec report.Record, f Facts) bool {
	a, own := ownHook(rec, f)
	return own && f.Allowed && rec.ReportedState == report.StateBlocked &&
		a.ScreenCorrects(report.StateBlocked, report.StateWorking)
}

// Decision is what Decide wants written: the new record and @agent_restored.
type Decision struct {
	Record   report.Record
	Restored int64  // unix ms, 0: unset
	Gone     bool   // the agent was cleared: its process ended
	Why      string // for the log and explain
}

// Decide is the watcher's whole write rule for one pane, pure so it can be tested as a table.
//
//   - A dead pane has no agent: everything is cleared.
//   - The pane's own shell at its prompt means the agent's process has ended: agent, state,
//     session and resume command are cleared with report.AgentGone — except for a record a
//     restore put back (@agent_restored set) less than grace ago, whose typed command has not
//     started yet.
//   - The agent in front quit a moment ago by its integration's word (Facts.Quit): it is
//     cleared as if its process had ended.
//   - taw's own answer granted the permission a hook of taw's own reports blocked
//     (allowedRuns): the agent runs it, and the state is working.
//   - Anything else in front: the restore's grace is over (its command started), and the
//     detected agent and its screen state are set; a hook holding the pane is left alone
//     (report.Record.Effective decides between them, and a blocker on screen wins), except
//     that the screen corrects taw's own hook when it clearly contradicts it (screenCorrects):
//     the hook's state becomes the screen's and its message goes, until the hook reports again.
func Decide(rec report.Record, restored int64, f Facts, nowMillis, graceMillis int64) Decision {
	d := Decision{Record: rec, Restored: restored}
	switch {
	case !f.Known:
		d.Why = "processes unreadable: nothing decided"
		return d
	case f.Dead:
		if HasAgent(rec) {
			d.Record, d.Gone = report.AgentGone(rec), true
		}
		d.Restored = 0
		d.Why = "the pane's process has exited"
		return d
	case f.AtPrompt:
		if restored > 0 && nowMillis-restored < graceMillis {
			d.Record.Detected, d.Record.DetectedState = "", ""
			d.Why = "restored: waiting for the typed command to start"
			return d
		}
		d.Restored = 0
		d.Why = "the pane's shell is at its prompt"
		if HasAgent(rec) {
			d.Record, d.Gone = report.AgentGone(rec), true
			d.Why = "the pane's shell is back at its prompt: the agent's process has ended"
		}
		return d
	}
	d.Restored = 0
	if f.Quit && rec.Source == "" {
		// The person quit the agent, by its integration's word, and its process is ending: it
		// is gone now rather than when its process has ended (Copilot CLI takes nearly two
		// seconds).
		d.Record, d.Gone = report.AgentGone(rec), HasAgent(rec)
		d.Why = "its integration said the person quit " + f.Agent + ": it is shown gone while its process ends"
		return d
	}
	if d.Record.Detected != f.Agent {
		d.Record.Detected, d.Record.DetectedState = f.Agent, ""
	}
	if f.Agent == "" {
		d.Record.DetectedState = ""
	} else if f.Classified && f.State != "" {
		d.Record.DetectedState = f.State
	}
	d.Why = "a program runs in front of the shell"
	if allowedRuns(d.Record, f) {
		d.Why = fmt.Sprintf("taw's answer allowed what %s asked: it runs it, and the hook's blocked is corrected to working", f.Agent)
		d.Record.ReportedState, d.Record.Message = report.StateWorking, ""
		return d
	}
	if screenCorrects(d.Record, f) {
		d.Why = fmt.Sprintf("the screen has shown %s %s for %d looks: the hook's %s is corrected to %s", f.Agent, f.ScreenState, f.ScreenLooks, d.Record.ReportedState, f.ScreenState)
		d.Record.ReportedState, d.Record.Message = f.ScreenState, ""
	}
	return d
}

// HasAgent says whether a record holds anything of an agent: a holder, a detected agent, a
// session or a resume command.
func HasAgent(r report.Record) bool {
	return r.Source != "" || r.Kind != "" || r.Detected != "" || len(r.Resume) > 0 ||
		r.ResumeSource != "" || r.SessionSource != "" || r.SessionID != ""
}
