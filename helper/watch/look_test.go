package watch

import (
	"testing"
	"time"
)

func TestReprobeDue(t *testing.T) {
	tests := []struct {
		done    int
		changed bool
		since   time.Duration
		want    bool
	}{
		{0, false, time.Hour, false}, // nothing changed on screen: nothing to look for
		{0, true, 0, true},           // the first changes: at once
		{1, true, 0, true},
		{2, true, 500 * time.Millisecond, false}, // then slower
		{2, true, time.Second, true},
		{4, true, 3 * time.Second, false},
		{5, true, 8 * time.Second, true},
		{6, true, time.Hour, false}, // and no more until the foreground changes
	}
	for _, tt := range tests {
		if got := reprobeDue(tt.done, tt.changed, tt.since); got != tt.want {
			t.Errorf("reprobeDue(%d, %v, %s) = %v, want %v", tt.done, tt.changed, tt.since, got, tt.want)
		}
	}
}
