package panestate

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestLockDir(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	uid := fmt.Sprintf("taw-%d", os.Getuid())
	tests := []struct {
		name string
		env  map[string]string
		want string // prefix
	}{
		{"runtime folder first", map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000", "TMUX_TMPDIR": "/var/tmp"}, "/run/user/1000/taw/default-"},
		{"a relative runtime folder is no runtime folder", map[string]string{"XDG_RUNTIME_DIR": "run", "TMUX_TMPDIR": "/var/tmp"}, "/var/tmp/" + uid + "/default-"},
		{"tmux's folder", map[string]string{"TMUX_TMPDIR": "/var/tmp"}, "/var/tmp/" + uid + "/default-"},
		{"/tmp at last", nil, "/tmp/" + uid + "/default-"},
	}
	for _, tt := range tests {
		if got := LockDir("/tmp/tmux-1000/default", env(tt.env)); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s: LockDir = %q, want it under %q", tt.name, got, tt.want)
		}
	}
	a := LockDir("/tmp/tmux-1000/default", env(nil))
	b := LockDir("/tmp/other/default", env(nil))
	if a == b {
		t.Errorf("two servers share a lock folder: %s", a)
	}
}
