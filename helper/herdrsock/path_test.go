package herdrsock

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSocketPath(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	a := SocketPath("/tmp/tmux-0/default", env(map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000"}))
	if !strings.HasPrefix(a, "/run/user/1000/taw/herdr-") || !strings.HasSuffix(a, ".sock") {
		t.Errorf("with a runtime folder: %s", a)
	}
	if b := SocketPath("/tmp/tmux-0/other", env(map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000"})); b == a {
		t.Errorf("two tmux servers share %s", a)
	}
	// A relative runtime folder is no runtime folder.
	c := SocketPath("/tmp/tmux-0/default", env(map[string]string{"XDG_RUNTIME_DIR": "run", "TMUX_TMPDIR": "/var/tmp"}))
	if !strings.HasPrefix(c, filepath.Join("/var/tmp", "taw-")) {
		t.Errorf("without a runtime folder: %s", c)
	}
	if len(a) > 100 || len(c) > 100 {
		t.Errorf("socket paths must fit a socket address: %d, %d bytes", len(a), len(c))
	}
}

func TestPrivateDir(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "taw")
	if err := PrivateDir(dir); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("made %v, want 0700", fi.Mode().Perm())
	}
	// A folder of the user's that is too open is narrowed.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := PrivateDir(dir); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("left %v, want 0700", fi.Mode().Perm())
	}
	// A link is refused, even to a private folder, and so is a file.
	link := filepath.Join(base, "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if err := PrivateDir(link); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("link: %v", err)
	}
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := PrivateDir(file); err == nil {
		t.Errorf("file accepted")
	}
}
