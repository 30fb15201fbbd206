package cli

import (
	"strings"
	"testing"
)

func TestParseSavedScreen(t *testing.T) {
	tests := []struct {
		name, in  string
		lines     string // joined with |
		wantTitle string
	}{
		{"plain", "a\nb\n", "a|b", ""},
		{"fixture headers", "# title: ✳ Claude\n# want: idle rule=x\n❯ \n", "❯ ", "✳ Claude"},
		// Only leading headers: a "# title:" line further down is screen text.
		{"header later", "x\n# title: y\n", "x|# title: y", ""},
		{"colours and osc", "\x1b[1m❯\x1b[0m hi\x1b]0;t\x07\n", "❯ hi", ""},
		{"crlf and controls", "a\r\nb\x00\x07c\n", "a|bc", ""},
		{"bad utf-8", "a\xffb\n", "a\uFFFDb", ""},
	}
	for _, tt := range tests {
		s := parseSavedScreen([]byte(tt.in))
		if got := strings.Join(s.Lines, "|"); got != tt.lines || s.Title != tt.wantTitle {
			t.Errorf("%s: lines %q title %q, want %q %q", tt.name, got, s.Title, tt.lines, tt.wantTitle)
		}
	}
}
