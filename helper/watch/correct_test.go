package watch

import (
	"testing"
	"time"
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

	// A report newer than the screen waits for the report's age.
	f.ReportAge = 200
	if due, _ := correctionDue(m, f, now); !due.Equal(now.Add((CorrectAgeMillis - 200) * time.Millisecond)) {
		t.Errorf("due %s after a fresh report, want when the report is %dms old", due.Sub(now), CorrectAgeMillis)
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
