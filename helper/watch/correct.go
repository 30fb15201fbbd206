package watch

import (
	"hash/fnv"
	"strconv"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/detect"
	"github.com/taw-tmux/taw/helper/panestate"
)

// screenEvidence is what the watcher keeps of a screen that shows the agent in another state
// than the one taw's own hook reported, by a rule of the agent's own: since which report
// (@agent_updated) it counts, the state it shows, how many looks in a row, and when the first
// was.
type screenEvidence struct {
	report string
	state  string
	looks  int
	since  time.Time
	print  uint64 // the screen the first look read (screenPrint)
}

// screenPrint tells one screen's text from another's.
func screenPrint(lines []string) uint64 {
	h := fnv.New64a()
	for _, l := range lines {
		h.Write([]byte(l))
		h.Write([]byte{'\n'})
	}
	return h.Sum64()
}

// countScreen fills the facts Decide needs to let the screen correct a hook (screenCorrects):
// the looks in a row since the hook's last report whose screen showed, by a rule of the agent's
// own (not the fallback), a state the catalogue lets replace the one the hook reported, the age
// of that report, and whether a look since it saw the screen show the state it reported.
func countScreen(p panestate.Pane, m *paneMemo, f *Facts, now time.Time) {
	updated := p.Options[panestate.OptUpdated]
	reported := p.Options[panestate.OptReportedState]
	a, known := agents.Lookup(m.agent)
	own := f.Classified && m.verdict.RuleID != detect.FallbackIdle && m.verdict.RuleID != "" && m.verdict.State != ""
	if own && updated != "" && m.verdict.State == reported {
		m.caughtUp = updated
	}
	if p.Options[panestate.OptSource] == "" || !known || !own || !a.ScreenCorrects(reported, m.verdict.State) {
		m.screen = screenEvidence{}
		return
	}
	print := screenPrint(m.lines)
	if m.screen.report != updated || m.screen.state != m.verdict.State || m.screen.looks == 0 {
		m.screen = screenEvidence{report: updated, state: m.verdict.State, since: now, print: print}
	}
	m.screen.looks++
	f.ScreenState, f.ScreenLooks, f.ScreenFor, f.ScreenReport = m.screen.state, m.screen.looks, now.Sub(m.screen.since).Milliseconds(), updated
	f.ScreenStill = print == m.screen.print
	f.CaughtUp = m.caughtUp == updated
	f.Answered, _ = panestate.AnswerTaken(p.Options)
	f.ReportAge = -1
	if ms, err := strconv.ParseInt(strings.TrimSpace(updated), 10, 64); err == nil {
		f.ReportAge = now.UnixMilli() - ms
	}
}

// correctionDue is when the screen counted against a hook (countScreen) will have shown its
// state long enough, and long enough after the report, for screenCorrects: ok false when no
// screen contradicts a hook, or when one has had all it needs.
func correctionDue(m *paneMemo, f Facts, now time.Time) (due time.Time, ok bool) {
	if m == nil || f.ScreenLooks == 0 {
		return time.Time{}, false
	}
	forMillis, ageMillis := correctionWait(f)
	due = m.screen.since.Add(time.Duration(forMillis) * time.Millisecond)
	if f.ReportAge >= 0 {
		if byAge := now.Add(time.Duration(ageMillis-f.ReportAge) * time.Millisecond); byAge.After(due) {
			due = byAge
		}
	}
	// Once the screen has had its looks and its time, the correction was made or will not be:
	// no hurry.
	return due, due.After(now) || f.ScreenLooks < CorrectLooks
}

// screenStill drops the count when a report has landed since the look: the screen it counted
// against an older report says nothing of the new one.
func screenStill(fresh panestate.Pane, f Facts) Facts {
	if f.ScreenLooks > 0 && fresh.Options[panestate.OptUpdated] != f.ScreenReport {
		f.ScreenLooks, f.ScreenFor = 0, 0
	}
	return f
}
