package filelock

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestRuntimeDir(t *testing.T) {
	uid := os.Getuid()
	tests := []struct {
		name   string
		env    map[string]string
		suffix string
		want   string
	}{
		{"runtime folder first", map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000", "TMUX_TMPDIR": "/var/tmp"}, "-herdr", "/run/user/1000/taw"},
		{"a relative runtime folder is no runtime folder", map[string]string{"XDG_RUNTIME_DIR": "run", "TMUX_TMPDIR": "/var/tmp"}, "", fmt.Sprintf("/var/tmp/taw-%d", uid)},
		{"tmux's folder, with the suffix", map[string]string{"TMUX_TMPDIR": "/var/tmp"}, "-herdr", fmt.Sprintf("/var/tmp/taw-%d-herdr", uid)},
		{"a relative tmux folder is no tmux folder", map[string]string{"TMUX_TMPDIR": "tmp"}, "", fmt.Sprintf("/tmp/taw-%d", uid)},
		{"/tmp at last", nil, "", fmt.Sprintf("/tmp/taw-%d", uid)},
	}
	for _, tt := range tests {
		getenv := func(k string) string { return tt.env[k] }
		if got := RuntimeDir(getenv, tt.suffix); got != tt.want {
			t.Errorf("%s: RuntimeDir = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestClosedDir(t *testing.T) {
	base := t.TempDir()
	if err := os.Symlink(t.TempDir(), filepath.Join(base, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "file"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(base, "open"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(base, "shared"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(base, "shared"), 0o770); err != nil {
		t.Fatal(err)
	}
	// Each folder below base, and what its refusal says: "" when it is accepted and left 0700.
	refusals := map[string]string{
		"made/below": "",                       // missing folders are made
		"open":       "",                       // a folder of the user's others may read is narrowed
		"shared":     "others may write in it", // a folder others may write in is refused
		"link":       "symbolic link",
		"file":       "not a folder",
	}
	for rel, unsafe := range refusals {
		dir := filepath.Join(base, rel)
		err := ClosedDir(dir)
		if unsafe != "" {
			wantUnsafe(t, err, unsafe)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: left %v, want 0700", rel, fi.Mode().Perm())
		}
	}
}
