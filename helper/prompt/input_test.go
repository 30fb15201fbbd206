package prompt

import (
	"strings"
	"testing"
)

func TestStillTyped(t *testing.T) {
	idle := fixture(t, "../../detect/testdata/gemini/real_0.61.0_idle_prompt.txt")
	typed := strings.Replace(idle, " >   Type your message or @path/to/file", " >   write the probe file", 1)
	// Taken: the prompt is in Gemini's history, a line over its emptied input, in the bottom
	// lines of the screen.
	taken := strings.Replace(idle, " >   Type your message or @path/to/file", " > write the probe file\n✦ Done.\n >   Type your message or @path/to/file", 1)
	tests := []struct {
		name, now string
		want      bool
	}{
		{"the same screen", typed, true},
		{"taken, echoed in the history", taken, false},
		{"the input emptied", idle, false},
		{"a spinner under the input", typed + "\n⠋ Thinking", false},
	}
	for _, tt := range tests {
		if got := StillTyped(typed, tt.now, "write the probe file"); got != tt.want {
			t.Errorf("%s: StillTyped = %v, want %v", tt.name, got, tt.want)
		}
	}
	if !StillTyped(typed+"\n context 12% left", typed+"\n context 13% left", "write the probe file") {
		t.Error("a footer's number ticked: the prompt does not sit")
	}
	if !StillTyped("a\nb", "a\nb", "not shown") || StillTyped("a\nb", "a\nc", "not shown") {
		t.Error("a prompt never shown sits exactly while the screen is the same")
	}
}
