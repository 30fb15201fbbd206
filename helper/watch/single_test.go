package watch

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A second claim from another process fails while the first holds the server, and Running
// names the holder without taking the lock.
func TestClaimIsExclusiveAcrossProcesses(t *testing.T) {
	if os.Getenv("TAW_CLAIM_CHILD") != "" {
		_, err := Claim(os.Getenv("TAW_CLAIM_CHILD"), os.Getpid())
		if errors.Is(err, ErrRunning) {
			os.Exit(3)
		}
		os.Exit(0)
	}
	dir := t.TempDir()
	if got := Running(dir); got != 0 {
		t.Fatalf("Running before any claim = %d", got)
	}
	release, err := Claim(dir, os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if got := Running(dir); got != os.Getpid() {
		t.Errorf("Running = %d, want %d", got, os.Getpid())
	}
	child := func() int {
		cmd := exec.Command(os.Args[0], "-test.run=TestClaimIsExclusiveAcrossProcesses")
		cmd.Env = append(os.Environ(), "TAW_CLAIM_CHILD="+dir)
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		return 0
	}
	if code := child(); code != 3 {
		t.Errorf("a second watcher claimed the server (exit %d)", code)
	}
	release()
	if got := Running(dir); got != 0 {
		t.Errorf("Running after release = %d", got)
	}
	if code := child(); code != 0 {
		t.Errorf("no one holds the server, yet the claim failed (exit %d)", code)
	}
}

// Links planted where the watcher's pid file and log go are never written through: the file
// they name keeps its content, and the claim and the log are refused with a clear error.
func TestWatcherFilesNeverFollowLinks(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(victim, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{PidPath(dir), LogPath(dir)} {
		if err := os.Symlink(victim, p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Claim(dir, os.Getpid()); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("Claim through a linked pid file = %v, want a refusal", err)
	}
	if got := Running(dir); got != 0 {
		t.Errorf("Running read the linked file: %d", got)
	}
	if f, err := OpenLog(dir); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		if f != nil {
			f.Close()
		}
		t.Errorf("OpenLog through a link = %v, want a refusal", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Errorf("the linked file changed: %q", b)
	}
}
