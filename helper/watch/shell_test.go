package watch

import (
	"testing"

	"github.com/taw-tmux/taw/helper/procinfo"
)

func TestIsInteractiveShell(t *testing.T) {
	tests := []struct {
		argv []string
		comm string
		want bool
	}{
		{[]string{"-sh"}, "sh", true}, // a login shell
		{[]string{"/bin/bash", "-l"}, "bash", true},
		{[]string{"zsh", "-i"}, "zsh", true},
		{[]string{"fish", "--login"}, "fish", true},
		{nil, "dash", false},                                     // argv unreadable (mid-exec): no guess
		{[]string{"sh", "-c", "claude --resume x"}, "sh", false}, // how tmux starts a pane's command
		{[]string{"bash", "-lc", "codex"}, "bash", false},
		{[]string{"/bin/sh", "/home/a/bin/claude"}, "sh", false}, // a script
		{[]string{"claude"}, "claude", false},
		{[]string{"vim", "x"}, "vim", false},
	}
	for _, tt := range tests {
		if got := IsInteractiveShell(procinfo.Proc{Argv: tt.argv, Comm: tt.comm}); got != tt.want {
			t.Errorf("IsInteractiveShell(%q, comm %q) = %t, want %t", tt.argv, tt.comm, got, tt.want)
		}
	}
}
