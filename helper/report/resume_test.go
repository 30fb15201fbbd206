package report

import (
	"errors"
	"strings"
	"testing"
)

func onPath(name string) bool { return name == "my-agent" || name == "claude" }

func TestValidateResume(t *testing.T) {
	words := func(n int) []string {
		w := []string{"my-agent"}
		for len(w) < n {
			w = append(w, "x")
		}
		return w
	}
	tests := []struct {
		name string
		argv []string
		want string // substring of the reason; "" means valid
	}{
		{"no command", nil, ""},
		{"plain", []string{"my-agent", "--resume", "abc", "--model", "m"}, ""},
		{"spaces, = and globs are fine", []string{"my-agent", "a b", "k=v", "*?[x]", "$HOME", ";", `\`, `"`, "日本"}, ""},
		{"64 words", words(64), ""},
		{"65 words", words(65), "65 words"},
		{"first word is a path", []string{"/usr/bin/my-agent"}, "not a plain command name"},
		{"first word starts with -", []string{"-my-agent"}, "not a plain command name"},
		{"first word not on PATH", []string{"other-agent"}, "not a command on PATH"},
		{"apostrophe", []string{"my-agent", "it's"}, "apostrophe"},
		{"newline", []string{"my-agent", "a\nb"}, "control character"},
		{"escape", []string{"my-agent", "a\x1b[0m"}, "control character"},
		{"C1 control", []string{"my-agent", "a\u0085"}, "control character"},
		{"invalid utf-8", []string{"my-agent", "\xff"}, "UTF-8"},
		{"8 KiB exactly", []string{"my-agent", strings.Repeat("a", 8192-len("my-agent")-1)}, ""},
		{"8 KiB and one", []string{"my-agent", strings.Repeat("a", 8192-len("my-agent"))}, "bytes, at most 8192"},
		// Backslashes and quotes double once quoted for tmux, so 8 KiB of them is too long for
		// one tmux command although it is within 8 KiB.
		{"8 KiB of backslashes", []string{"my-agent", strings.Repeat(`\`, 8000)}, "too long for one tmux command"},
		{"8 KiB of double quotes", []string{"my-agent", strings.Repeat(`"`, 8000)}, "too long for one tmux command"},
		{"many backslashes that still fit", []string{"my-agent", strings.Repeat(`\`, 7000)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateResume(tt.argv, onPath)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("ValidateResume = %v, want valid", err)
				}
				return
			}
			var re *ResumeError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ValidateResume = %v, want a refusal mentioning %q", err, tt.want)
			}
		})
	}
}

// The tmux command limit sits exactly where the quoted line plus the send-keys call reach
// tmux's message size.
func TestValidateResumeTmuxLimitEdge(t *testing.T) {
	fits := func(n int) bool {
		return ValidateResume([]string{"my-agent", strings.Repeat(`\`, n)}, onPath) == nil
	}
	// A word of n backslashes is quoted as '\\…' (n+2), then each backslash doubles for tmux.
	quoted := func(n int) int { return len(TmuxQuotedLine([]string{"my-agent", strings.Repeat(`\`, n)})) }
	edge := 0
	for n := 7000; n < 8200; n++ {
		if quoted(n)+resumeSendOverhead > MaxTmuxCommand {
			edge = n
			break
		}
	}
	if edge == 0 {
		t.Fatal("no edge found")
	}
	if !fits(edge-1) || fits(edge) {
		t.Errorf("edge at %d backslashes: fits(%d)=%v fits(%d)=%v", edge, edge-1, fits(edge-1), edge, fits(edge))
	}
}
