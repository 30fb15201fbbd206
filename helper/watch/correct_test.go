package watch

import (
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/detect"
	"github.com/taw-tmux/taw/helper/panestate"
)

// A screen that begins to contradict a hook brings the next look forward to the moment the
// correction can be made, so an Esc or an allowed permission shows within the correction's own
// wait, not a whole interval after it.
func TestNextLookComesWhenTheCorrectionCan(t *testing.T) {
	now := time.Unix(1000, 0)
	w := New(Config{})
	if got := w.NextLook(now); got != DefaultInterval {
		t.Fatalf("with nothing pending the next look is in %s, want the interval %s", got, DefaultInterval)
	}
	// An agent at work: a share of the interval.
	w.busy = true
	if got := w.NextLook(now); got != DefaultInterval/BusyShare {
		t.Errorf("with an agent at work the next look is in %s, want %s", got, DefaultInterval/BusyShare)
	}
	// Looks that take long (many panes) come further apart: busyBudget times their own time,
	// never more than half the interval.
	w.lookTook = 8 * time.Millisecond
	if got := w.NextLook(now); got != 8*time.Millisecond*busyBudget {
		t.Errorf("with looks of 8ms the next look is in %s, want %s", got, 8*time.Millisecond*busyBudget)
	}
	w.lookTook = time.Second
	if got := w.NextLook(now); got != DefaultInterval/2 {
		t.Errorf("with looks of 1s the next look is in %s, want half the interval", got)
	}
	w.busy, w.lookTook = false, 0
	m := &paneMemo{screen: screenEvidence{since: now, looks: 1}}
	f := Facts{ScreenLooks: 1, ReportAge: 10_000}
	due, ok := correctionDue(m, f, now)
	if !ok || !due.Equal(now.Add(CorrectFor*time.Millisecond)) {
		t.Fatalf("correctionDue = %s, %t; want %s after the first look", due, ok, CorrectFor*time.Millisecond)
	}
	w.soon = due
	if got := w.NextLook(now); got != CorrectFor*time.Millisecond {
		t.Errorf("next look in %s, want %s", got, CorrectFor*time.Millisecond)
	}

	// A screen that has not changed since the first look: the next look comes when the still
	// screen's shorter wait is over.
	f.ScreenStill = true
	if due, _ := correctionDue(m, f, now); !due.Equal(now.Add(CorrectForStill * time.Millisecond)) {
		t.Errorf("due %s for a still screen, want %dms", due.Sub(now), CorrectForStill)
	}
	f.ScreenStill = false

	// A report newer than the screen waits for the report's age.
	f.ReportAge = 200
	if due, _ := correctionDue(m, f, now); !due.Equal(now.Add((CorrectAgeMillis - 200) * time.Millisecond)) {
		t.Errorf("due %s after a fresh report, want when the report is %dms old", due.Sub(now), CorrectAgeMillis)
	}

	// After taw's own answer took the dialog: the shorter wait, and no report age.
	f = Facts{ScreenLooks: 1, ReportAge: 200, Answered: true}
	if due, _ := correctionDue(m, f, now); !due.Equal(now.Add(CorrectForAnswered * time.Millisecond)) {
		t.Errorf("due %s after an answer was taken, want %dms", due.Sub(now), CorrectForAnswered)
	}

	// Looks and time both had: the correction was made or will not be, and nothing hurries.
	m.screen.since = now.Add(-5 * time.Second)
	f = Facts{ScreenLooks: CorrectLooks, ReportAge: 10_000}
	if _, ok := correctionDue(m, f, now); ok {
		t.Errorf("a correction that had everything it needs still hurries the next look")
	}
	if _, ok := correctionDue(m, Facts{}, now); ok {
		t.Errorf("no screen evidence, yet a look is hurried")
	}
}

// The watcher knows an answer of taw's took the dialog of the report that holds the pane only
// while that report still holds it: the mark names the report by its @agent_updated.
func TestCountScreenSeesTheAnswerTaken(t *testing.T) {
	now := time.Unix(1000, 0)
	pane := func(agent, reported, taken string) panestate.Pane {
		return panestate.Pane{ID: "%1", Options: map[string]string{
			panestate.OptSource: "integration:" + agent, panestate.OptReportedKind: agent,
			panestate.OptReportedState: reported, panestate.OptUpdated: "999000",
			panestate.OptAnswerTaken: taken,
		}}
	}
	for _, tt := range []struct {
		agent, reported, taken string
		want                   bool
	}{
		{"claude", "blocked", "999000", true},
		{"claude", "blocked", "998000", false},
		{"claude", "blocked", "", false},
		// The idle Gemini CLI reports as a command is allowed: the report the answer set off.
		{"gemini", "idle", "999000", true},
		{"gemini", "idle", "998000", false},
	} {
		m := &paneMemo{agent: tt.agent, verdict: detect.Verdict{State: "working", RuleID: "spinner"}}
		f := Facts{Known: true, Agent: tt.agent, Classified: true, State: "working"}
		countScreen(pane(tt.agent, tt.reported, tt.taken), m, &f, now)
		if f.ScreenLooks != 1 || f.Answered != tt.want {
			t.Errorf("%s %s, answer taken for report %q: looks %d, Answered %t; want 1, %t", tt.agent, tt.reported, tt.taken, f.ScreenLooks, f.Answered, tt.want)
		}
	}
}

// The screen is still while the looks read the very screen the first read; a frame drawn since
// makes it not still, and the evidence goes on counting.
func TestCountScreenSeesAStillScreen(t *testing.T) {
	now := time.Unix(1000, 0)
	p := panestate.Pane{ID: "%1", Options: map[string]string{
		panestate.OptSource: "integration:claude", panestate.OptReportedKind: "claude",
		panestate.OptReportedState: "working", panestate.OptUpdated: "990000",
	}}
	m := &paneMemo{agent: "claude", verdict: detect.Verdict{State: "idle", RuleID: "prompt-box"}, lines: []string{"> ", "? for shortcuts"}}
	look := func(at time.Time) Facts {
		f := Facts{Known: true, Agent: "claude", Classified: true, State: "idle"}
		countScreen(p, m, &f, at)
		return f
	}
	if f := look(now); f.ScreenLooks != 1 || !f.ScreenStill {
		t.Fatalf("first look: looks %d, still %t; want 1, true", f.ScreenLooks, f.ScreenStill)
	}
	if f := look(now.Add(300 * time.Millisecond)); f.ScreenLooks != 2 || !f.ScreenStill {
		t.Errorf("the same screen: looks %d, still %t; want 2, true", f.ScreenLooks, f.ScreenStill)
	}
	m.lines = []string{"> ", "? for shortcuts · 1 file changed"}
	if f := look(now.Add(600 * time.Millisecond)); f.ScreenLooks != 3 || f.ScreenStill || f.ScreenFor != 600 {
		t.Errorf("a frame drawn since: looks %d, still %t, for %d; want 3, false, 600", f.ScreenLooks, f.ScreenStill, f.ScreenFor)
	}
}

// A look that sees the screen show the state the hook reported marks the agent caught up with
// that report; a newer report is not, until a look sees its state.
func TestCountScreenSeesTheScreenCaughtUp(t *testing.T) {
	now := time.Unix(1000, 0)
	p := panestate.Pane{ID: "%1", Options: map[string]string{
		panestate.OptSource: "integration:copilot", panestate.OptReportedKind: "copilot",
		panestate.OptReportedState: "working", panestate.OptUpdated: "999800",
	}}
	m := &paneMemo{agent: "copilot", verdict: detect.Verdict{State: "idle", RuleID: "prompt-footer"}}
	look := func() Facts {
		f := Facts{Known: true, Agent: "copilot", Classified: true, State: m.verdict.State}
		countScreen(p, m, &f, now)
		return f
	}
	if f := look(); f.ScreenLooks != 1 || f.CaughtUp {
		t.Fatalf("the prompt before any spinner: looks %d, caught up %t; want 1, false", f.ScreenLooks, f.CaughtUp)
	}
	m.verdict = detect.Verdict{State: "working", RuleID: "working-footer"}
	look()
	m.verdict = detect.Verdict{State: "idle", RuleID: "prompt-footer"}
	if f := look(); f.ScreenLooks != 1 || !f.CaughtUp {
		t.Errorf("the prompt after the spinner: looks %d, caught up %t; want 1, true", f.ScreenLooks, f.CaughtUp)
	}
	p.Options[panestate.OptUpdated] = "999900"
	if f := look(); f.CaughtUp {
		t.Errorf("a newer report counts as caught up before its state was seen")
	}
	// The fallback's reading is no rule of the agent's own: it catches nothing up.
	p.Options[panestate.OptReportedState] = "idle"
	m.verdict = detect.Verdict{State: "idle", RuleID: detect.FallbackIdle}
	look()
	if m.caughtUp == "999900" {
		t.Errorf("the fallback's idle marked the report caught up")
	}
}

// An agent working or blocked is at work; an idle one, or a pane's record with no agent, is not.
func TestAtWorkIsAnAgentWorkingOrBlocked(t *testing.T) {
	pane := func(agent, state string) panestate.Pane {
		return panestate.Pane{Options: map[string]string{panestate.OptName: agent, panestate.OptState: state}}
	}
	for _, c := range []struct {
		panes []panestate.Pane
		want  bool
	}{
		{nil, false},
		{[]panestate.Pane{pane("claude", "idle"), pane("", "")}, false},
		{[]panestate.Pane{pane("claude", "idle"), pane("codex", "working")}, true},
		{[]panestate.Pane{pane("copilot", "blocked")}, true},
		{[]panestate.Pane{pane("", "working")}, false},
	} {
		if got := atWork(c.panes); got != c.want {
			t.Errorf("atWork(%v) = %t, want %t", c.panes, got, c.want)
		}
	}
}
