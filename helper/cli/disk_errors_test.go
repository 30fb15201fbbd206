package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/session"
)

// A save onto a full disk or a read-only file system answers a code that says so, not internal.
// The disk is a real tmpfs, filled up, then remounted read-only.
func TestSaveOnFullAndReadOnlyDisks(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("mounting a small tmpfs needs root (CI runs as root)")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("mount tmpfs: %v: %s", err, out)
	}
	defer exec.Command("umount", dir).Run()
	filler, _ := os.Create(filepath.Join(dir, "filler"))
	for {
		if _, err := filler.Write(make([]byte, 4096)); err != nil {
			break
		}
	}
	filler.Close()
	store := &session.Store{Dir: filepath.Join(dir, "saves")}
	doc := &session.Document{Sessions: []session.Session{{Name: "main"}}}
	_, err := store.Write("default", doc, true)
	if got := AsError(err); got.Code != coded.NoSpace {
		t.Errorf("save on a full disk: code %q (%v), want %q", got.Code, err, coded.NoSpace)
	}
	os.Remove(filepath.Join(dir, "filler"))
	if out, err := exec.Command("mount", "-o", "remount,ro", dir).CombinedOutput(); err != nil {
		t.Fatalf("remount read-only: %v: %s", err, out)
	}
	_, err = store.Write("default", doc, true)
	if got := AsError(err); got.Code != coded.ReadOnly {
		t.Errorf("save on a read-only disk: code %q (%v), want %q", got.Code, err, coded.ReadOnly)
	}
}

func TestAsErrorKeepsCodes(t *testing.T) {
	if got := AsError(fmt.Errorf("write x: %w", errors.New("boom"))); got.Code != coded.Internal {
		t.Errorf("code %q", got.Code)
	}
	if got := AsError(Errorf(coded.Busy, "b")); got.Code != coded.Busy {
		t.Errorf("code %q", got.Code)
	}
}
