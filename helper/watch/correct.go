package watch

import (
	"strconv"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/detect"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/report"
)

// idleEvidence is what the watcher keeps of a screen that shows the agent at its own prompt
// while a hook says otherwise: since which report (@agent_updated) it counts, how many looks in
// a row, and when the first was.
type idleEvidence struct {
	report string
	looks  int
	since  time.Time
}

// countIdle fills the facts Decide needs to let the screen correct a hook (screenCorrects):
// the looks in a row since the hook's last report whose screen showed the agent's prompt by an
// idle rule of its own, and the age of that report.
func countIdle(p panestate.Pane, m *paneMemo, f *Facts, now time.Time) {
	updated := p.Options[panestate.OptUpdated]
	hookBusy := p.Options[panestate.OptSource] != "" &&
		(p.Options[panestate.OptReportedState] == report.StateWorking || p.Options[panestate.OptReportedState] == report.StateBlocked)
	prompt := f.Classified && m.verdict.State == report.StateIdle && m.verdict.RuleID != detect.FallbackIdle && m.verdict.RuleID != ""
	if !hookBusy || !prompt || m.agent == "" {
		m.idle = idleEvidence{}
		return
	}
	if m.idle.report != updated || m.idle.looks == 0 {
		m.idle = idleEvidence{report: updated, since: now}
	}
	m.idle.looks++
	f.IdleLooks, f.IdleFor, f.IdleReport = m.idle.looks, now.Sub(m.idle.since).Milliseconds(), updated
	f.ReportAge = -1
	if ms, err := strconv.ParseInt(strings.TrimSpace(updated), 10, 64); err == nil {
		f.ReportAge = now.UnixMilli() - ms
	}
}

// idleStill drops the count when a report has landed since the look: the screen it counted
// against an older report says nothing of the new one.
func idleStill(fresh panestate.Pane, f Facts) Facts {
	if f.IdleLooks > 0 && fresh.Options[panestate.OptUpdated] != f.IdleReport {
		f.IdleLooks, f.IdleFor = 0, 0
	}
	return f
}
