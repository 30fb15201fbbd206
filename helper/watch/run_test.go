package watch

import (
	"testing"
	"time"
)

func TestAReportIsFollowedByALookSoon(t *testing.T) {
	for _, tt := range []struct {
		next  time.Duration
		woken bool
		want  time.Duration
	}{
		{time.Second, false, time.Second},                      // the interval, with nothing to follow
		{time.Second, true, reportFollowUp},                    // a report woke the look: the next comes soon
		{100 * time.Millisecond, true, 100 * time.Millisecond}, // a correction due sooner still
	} {
		if got := followUp(tt.next, tt.woken); got != tt.want {
			t.Errorf("followUp(%s, woken %t) = %s, want %s", tt.next, tt.woken, got, tt.want)
		}
	}
}
