package filelock

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
		if got := DefaultRuntimeDir(getenv, tt.suffix); got != tt.want {
			t.Errorf("%s: DefaultRuntimeDir = %q, want %q", tt.name, got, tt.want)
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

// A link planted where the runtime folder goes (no XDG_RUNTIME_DIR) is passed over for a private
// folder no one else could have made first, found again by every later call, and said.
func TestRuntimeDirFallsBackFromAPlant(t *testing.T) {
	base := t.TempDir()
	env := map[string]string{"TMUX_TMPDIR": base}
	getenv := func(k string) string { return env[k] }
	def := DefaultRuntimeDir(getenv, "")
	if got := RuntimeDir(getenv, ""); got != def || RuntimeProblem(getenv, "") != "" {
		t.Fatalf("with nothing planted: %q %q", got, RuntimeProblem(getenv, ""))
	}
	if err := os.Symlink(t.TempDir(), def); err != nil {
		t.Fatal(err)
	}
	got := RuntimeDir(getenv, "")
	if got == def || filepath.Dir(got) != base {
		t.Fatalf("RuntimeDir with a planted link = %q", got)
	}
	fi, err := os.Lstat(got)
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("fallback folder: %v %v", fi, err)
	}
	if again := RuntimeDir(getenv, ""); again != got {
		t.Fatalf("a second call found %q, not %q", again, got)
	}
	if p := RuntimeProblem(getenv, ""); !strings.Contains(p, "it is a symbolic link") || !strings.Contains(p, "taw uses "+got+" instead") {
		t.Fatalf("RuntimeProblem = %q", p)
	}
	// Another suffix gets a folder of its own.
	if h := RuntimeDir(getenv, "-herdr"); h == got || !strings.HasSuffix(h, "-herdr") && h != DefaultRuntimeDir(getenv, "-herdr") {
		t.Fatalf("RuntimeDir -herdr = %q", h)
	}
	// A record pointing anywhere else is not followed.
	record := runtimeRecord(getenv, "")
	if err := os.WriteFile(record, []byte(t.TempDir()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if other := RuntimeDir(getenv, ""); other == got || !strings.HasPrefix(other, filepath.Join(base, fmt.Sprintf("taw-%d-", os.Getuid()))) {
		t.Fatalf("after a bad record: %q", other)
	}
}
