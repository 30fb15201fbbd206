package cli

import (
	"strings"
	"testing"
)

func TestIntersperse(t *testing.T) {
	app := NewApp(&Factory{Getenv: func(string) string { return "" }})
	tests := []struct{ given, want string }{
		// flags after the pane
		{"taw pane report-agent %1 --source s --agent a --state idle",
			"taw pane report-agent --source s --agent a --state idle -- %1"},
		// flags before the pane
		{"taw pane report-agent --source s --agent a --state idle %1",
			"taw pane report-agent --source s --agent a --state idle -- %1"},
		// on both sides, with a resume command that has flags of its own
		{"taw -L x pane report-agent --source s %1 --agent a --state idle -- my-agent --resume 1",
			"taw -L x pane report-agent --source s --agent a --state idle -- %1 -- my-agent --resume 1"},
		// --flag=value takes no separate value
		{"taw pane report-agent --source=s %1 --agent=a", "taw pane report-agent --source=s --agent=a -- %1"},
		// a value that looks like a pane stays with its flag
		{"taw pane report-agent --message %1 %2", "taw pane report-agent --message %1 -- %2"},
		// an unknown verb is left for the command line to report
		{"taw nope --x", "taw nope --x"},
	}
	for _, tt := range tests {
		got := strings.Join(intersperse(app, strings.Fields(tt.given)), " ")
		if got != tt.want {
			t.Errorf("intersperse(%q)\n got %q\nwant %q", tt.given, got, tt.want)
		}
	}
}

func TestCleanMessage(t *testing.T) {
	if got := cleanMessage("a\nb\tc\x1b"); got != "a b c" {
		t.Errorf("cleanMessage = %q", got)
	}
	long := strings.Repeat("é", 400) // 800 bytes
	got := cleanMessage(long)
	if len(got) > maxMessageBytes || !strings.HasPrefix(long, got) || len(got) != 512 {
		t.Errorf("cleanMessage cut to %d bytes", len(got))
	}
}
