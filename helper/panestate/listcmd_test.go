package panestate

import (
	"strings"
	"testing"
)

func TestListCmd(t *testing.T) {
	tests := []struct{ prefix string }{
		{""},          // the call alone
		{"\x1eP\x1f"}, // a row marker, when the call shares its output with other calls
	}
	for _, tt := range tests {
		cmd := ListCmd(tt.prefix)
		if len(cmd) != 4 || strings.Join(cmd[:3], " ") != "list-panes -a -F" {
			t.Fatalf("ListCmd(%q) = %q, want list-panes -a -F <format>", tt.prefix, cmd)
		}
		if cmd[3] != tt.prefix+Format() {
			t.Errorf("ListCmd(%q) format = %q, want the prefix then Format()", tt.prefix, cmd[3])
		}
	}
}
