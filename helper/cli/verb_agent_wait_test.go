package cli

import (
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/coded"
)

func TestParseTimeout(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		bad  bool
	}{
		{"30s", 30 * time.Second, false},
		{"1m30s", 90 * time.Second, false},
		{"1500", 1500 * time.Millisecond, false}, // herdr's milliseconds
		{"0", 0, false},
		{" 2m ", 2 * time.Minute, false},
		{"-5", 0, true},
		{"-1s", 0, true},
		{"soon", 0, true},
		{"", 0, true},
	} {
		got, err := parseTimeout(c.in)
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("parseTimeout(%q) = %v, %v; want %v, bad %v", c.in, got, err, c.want, c.bad)
		}
		if err != nil && (AsError(err).Exit != ExitError || AsError(err).Code != coded.InvalidArgument) {
			t.Errorf("parseTimeout(%q): a bad timeout must be invalid_argument (exit 1)", c.in)
		}
	}
}

func TestUntilMatches(t *testing.T) {
	for _, c := range []struct {
		until []string
		state string
		want  bool
	}{
		{defaultUntil, "idle", true},
		{defaultUntil, "done", true},
		{defaultUntil, "blocked", true},
		{defaultUntil, "working", false},
		{defaultUntil, "unknown", false},
		{[]string{"idle"}, "done", true}, // a done agent is idle nobody has looked at
		{[]string{"done"}, "idle", false},
		{[]string{"working"}, "working", true},
		{[]string{"working"}, "", false},
	} {
		if got := untilMatches(c.until, c.state); got != c.want {
			t.Errorf("untilMatches(%v, %q) = %v, want %v", c.until, c.state, got, c.want)
		}
	}
}

func TestOrList(t *testing.T) {
	for in, want := range map[string]string{"": "", "idle": "idle"} {
		words := []string{}
		if in != "" {
			words = []string{in}
		}
		if got := orList(words); got != want {
			t.Errorf("orList(%v) = %q", words, got)
		}
	}
	if got := orList([]string{"idle", "done", "blocked"}); got != "idle, done or blocked" {
		t.Errorf("orList = %q", got)
	}
}
