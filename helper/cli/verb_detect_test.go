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

func TestNewDetectCommand(t *testing.T) {
	tests := []struct {
		args    string
		want    detectOptions
		wantErr string
	}{
		{"taw detect s.txt", detectOptions{File: "s.txt"}, ""},
		{"taw detect - --agent claude-code --json", detectOptions{File: "-", Agent: "claude-code", JSON: true}, ""},
		{"taw detect s.txt --title x", detectOptions{File: "s.txt", Title: "x", TitleSet: true}, ""},
		{"taw detect", detectOptions{}, "detect takes one saved screen"},
		{"taw detect a b", detectOptions{}, "detect takes one saved screen"},
	}
	for _, tt := range tests {
		parsed, err := runParsed(t, tt.args)
		got, _ := parsed.(*detectOptions)
		switch {
		case tt.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || AsError(err).Exit != ExitUsage {
				t.Errorf("%s: err = %v, want usage error %q", tt.args, err, tt.wantErr)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.args, err)
		case *got != tt.want:
			t.Errorf("%s: options = %+v, want %+v", tt.args, *got, tt.want)
		}
	}
}
