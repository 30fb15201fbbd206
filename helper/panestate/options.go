package panestate

import (
	"strconv"
	"strings"

	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/shellquote"
)

// Pane options, all namespaced @agent_… so they never meet a user's own.
const (
	OptName       = "@agent_name"        // effective agent id; empty: no agent
	OptState      = "@agent_state"       // effective state: idle|working|blocked|unknown
	OptStateSince = "@agent_state_since" // unix milliseconds of the last change of agent or state
	OptUpdated    = "@agent_updated"     // unix milliseconds of the last report taken

	OptSource        = "@agent_source"
	OptReportedKind  = "@agent_reported_kind"
	OptReportedState = "@agent_reported_state"
	OptMessage       = "@agent_message"

	OptDetected      = "@agent_detected"
	OptDetectedState = "@agent_detected_state"

	OptSessionID     = "@agent_session_id"
	OptSessionPath   = "@agent_session_path"
	OptSessionStart  = "@agent_session_start"
	OptSessionSource = "@agent_session_source"
	OptSessionAgent  = "@agent_session_agent"

	OptResume       = "@agent_resume" // the command as the restore types it
	OptResumeSource = "@agent_resume_source"
	OptResumeAgent  = "@agent_resume_agent"

	OptSeq = "@agent_seq"

	OptRestored = "@agent_restored" // unix ms a restore put the record back and typed its command; the watcher's grace

	OptDone = "@agent_done" // the agent (id) that finished a turn nobody has looked at yet

	// OptTurnEnded marks a turn a report ended (working or blocked, then idle), for the watcher
	// to see even when it never looked while the turn ran: "<agent> <state> <unix ms>", the
	// state the turn ended from and when. The watcher takes it away once it has seen it.
	OptTurnEnded = "@agent_turn_ended"

	OptPrompt = "@agent_prompt" // what the blocked agent asks, compact JSON; gone when it leaves blocked

	// OptAnswerTaken is the @agent_updated of the report taw's own answer is known to have
	// ended or set off: the blocked report whose dialog was seen to go, or the report the agent
	// made as it took the answer. The screen may correct that report at once (see the
	// watcher's screenCorrects). " allowed" follows when the answer let the agent do what its
	// permission asked, so it runs it (AnswerTakenMark). A later report makes it stale by itself.
	OptAnswerTaken = "@agent_answer_taken"

	// OptQuit is "<agent> <unix ms>": taw's own integration released the pane as its agent quit
	// (its session-end event). The watcher shows the agent gone while its process ends, which
	// takes an agent such as Copilot CLI nearly two seconds (see QuitMark). A report that takes
	// the pane again takes it away.
	OptQuit = "@agent_quit"

	// OptHeld is "1" on a pane that holds, or has held, anything of taw's. The watcher reads the
	// options only of the panes that have it: one option to test per pane instead of one per
	// thing a pane may hold, and an unset option is the dearest thing for tmux to look up. It is
	// not part of the record: it is set with the first of taw's options a pane gets and stays
	// until the pane closes, so no write racing another can leave options it does not cover.
	OptHeld = "@agent_held"

	// OptGuard holds, within one guarded write, whether the pane is as its writer remembered it
	// (see guardedCall); it is gone when the call ends.
	OptGuard = "@agent_guard"
)

// Options lists every pane option taw reads in one call. Later features add theirs here.
var Options = []string{
	OptName, OptState, OptStateSince, OptUpdated,
	OptSource, OptReportedKind, OptReportedState, OptMessage,
	OptDetected, OptDetectedState,
	OptSessionID, OptSessionPath, OptSessionStart, OptSessionSource, OptSessionAgent,
	OptResume, OptResumeSource, OptResumeAgent,
	OptSeq,
	OptRestored,
	OptDone,
	OptPrompt,
	OptTurnEnded,
	OptAnswerTaken,
	OptQuit,
}

// RecordFromOptions reads the contract's record out of a pane's options.
func RecordFromOptions(o map[string]string) report.Record {
	r := report.Record{
		Source:        o[OptSource],
		Kind:          o[OptReportedKind],
		ReportedState: o[OptReportedState],
		Message:       o[OptMessage],
		Detected:      o[OptDetected],
		DetectedState: o[OptDetectedState],
		SessionID:     o[OptSessionID],
		SessionPath:   o[OptSessionPath],
		SessionStart:  o[OptSessionStart],
		SessionSource: o[OptSessionSource],
		SessionAgent:  o[OptSessionAgent],
		ResumeSource:  o[OptResumeSource],
		ResumeAgent:   o[OptResumeAgent],
		Seq:           report.ParseBook(o[OptSeq]),
	}
	if line := o[OptResume]; line != "" {
		r.Resume = shellquote.Words(line)
	}
	return r
}

// OptionsFromRecord writes the record, and the effective agent and state derived from it, into a
// copy of o. since is the time of this change, used when the effective agent or state moved.
func OptionsFromRecord(o map[string]string, r report.Record, nowMillis int64) map[string]string {
	n := make(map[string]string, len(o))
	for k, v := range o {
		n[k] = v
	}
	set := func(k, v string) { n[k] = v }
	set(OptSource, r.Source)
	set(OptReportedKind, r.Kind)
	set(OptReportedState, r.ReportedState)
	set(OptMessage, r.Message)
	set(OptDetected, r.Detected)
	set(OptDetectedState, r.DetectedState)
	set(OptSessionID, r.SessionID)
	set(OptSessionPath, r.SessionPath)
	set(OptSessionStart, r.SessionStart)
	set(OptSessionSource, r.SessionSource)
	set(OptSessionAgent, r.SessionAgent)
	set(OptResume, "")
	if len(r.Resume) > 0 {
		set(OptResume, shellquote.Line(shellquote.POSIX, r.Resume))
	}
	set(OptResumeSource, r.ResumeSource)
	set(OptResumeAgent, r.ResumeAgent)
	set(OptSeq, "")
	if len(r.Seq) > 0 {
		set(OptSeq, r.Seq.Encode())
	}
	agent, state := r.Effective()
	if agent != o[OptName] || state != o[OptState] {
		set(OptStateSince, "")
		if agent != "" {
			set(OptStateSince, strconv.FormatInt(nowMillis, 10))
		}
	}
	set(OptName, agent)
	set(OptState, state)
	if state != report.StateBlocked || agent != o[OptName] {
		set(OptPrompt, "") // the dialog on record was this agent's, and is answered or gone
	}
	return n
}

// TurnEndMark is the OptTurnEnded a report writes when it moves the pane from old to next: the
// same agent going from working or blocked to idle. ok false: the report ends no turn.
func TurnEndMark(old map[string]string, next report.Record, nowMillis int64) (mark string, ok bool) {
	agent, state := next.Effective()
	from := old[OptState]
	if agent == "" || agent != old[OptName] || state != report.StateIdle || (from != report.StateWorking && from != report.StateBlocked) {
		return "", false
	}
	return agent + " " + from + " " + strconv.FormatInt(nowMillis, 10), true
}

// AnswerTakenMark is the OptAnswerTaken of an answer taken for the report updated at updated;
// allowed: the answer let the agent do what its permission asked.
func AnswerTakenMark(updated string, allowed bool) string {
	if allowed {
		return updated + " allowed"
	}
	return updated
}

// AnswerTaken reads the pane's OptAnswerTaken against the report that holds it: taken, the mark
// names that report; allowed, the answer let the agent do what it asked.
func AnswerTaken(o map[string]string) (taken, allowed bool) {
	updated, how, _ := strings.Cut(o[OptAnswerTaken], " ")
	taken = updated != "" && updated == o[OptUpdated]
	return taken, taken && how == "allowed"
}

// QuitMark is the OptQuit a report writes when it moves the pane from old to next: the agent's
// mark when taw's own integration for it released the pane, "" (unset) when a report holds the
// pane again, and ok false when the mark stays as it is.
func QuitMark(old, next report.Record, nowMillis int64) (mark string, ok bool) {
	switch {
	case next.Source != "":
		return "", true
	case old.Kind != "" && old.Source == "integration:"+old.Kind:
		return old.Kind + " " + strconv.FormatInt(nowMillis, 10), true
	}
	return "", false
}

// ParseQuit reads an OptQuit mark: the agent and when it quit.
func ParseQuit(mark string) (agent string, atMillis int64, ok bool) {
	f := strings.Fields(mark)
	if len(f) != 2 {
		return "", 0, false
	}
	at, err := strconv.ParseInt(f[1], 10, 64)
	return f[0], at, err == nil
}

// ParseTurnEnd reads an OptTurnEnded mark.
func ParseTurnEnd(mark string) (agent, from string, ok bool) {
	f := strings.Fields(mark)
	if len(f) != 3 {
		return "", "", false
	}
	return f[0], f[1], true
}
