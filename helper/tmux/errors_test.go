package tmux

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorKinds(t *testing.T) {
	tests := []struct {
		name                string
		err                 error
		serverGone, notHere bool
	}{
		{"nil", nil, false, false},
		{"plain error", errors.New("server_not_running"), false, false},
		{"server gone", &Error{Code: CodeServerNotRunning}, true, false},
		{"wrapped server gone", fmt.Errorf("list panes: %w", &Error{Code: CodeServerNotRunning}), true, false},
		{"pane not found", &Error{Code: CodePaneNotFound}, false, true},
		{"wrapped pane not found", fmt.Errorf("read: %w", &Error{Code: CodePaneNotFound}), false, true},
		{"other tmux error", &Error{Code: CodeTmuxError}, false, false},
		// classify is what every client call goes through: its messages must land on the codes.
		{"no server message", classify("no server running on /tmp/tmux-0/x"), true, false},
		{"connect message", classify("error connecting to /tmp/tmux-0/x (No such file or directory)"), true, false},
		{"missing pane message", classify("can't find pane: %99"), false, true},
		{"missing session message", classify("no such session: x"), false, true},
		{"unknown message", classify("unknown command: x"), false, false},
	}
	for _, tt := range tests {
		if got := IsServerGone(tt.err); got != tt.serverGone {
			t.Errorf("%s: IsServerGone = %v, want %v", tt.name, got, tt.serverGone)
		}
		if got := IsPaneNotFound(tt.err); got != tt.notHere {
			t.Errorf("%s: IsPaneNotFound = %v, want %v", tt.name, got, tt.notHere)
		}
	}
}
