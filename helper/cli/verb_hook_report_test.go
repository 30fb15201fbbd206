package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/panestate"
)

func TestHookLockLatestOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "locks")
	ctx := context.Background()
	unlock, ok := hookLock(ctx, dir, "%1", 200)
	if !ok {
		t.Fatal("first report did not get the lock")
	}
	unlock()
	// An older report than the one recorded drops itself.
	if _, ok := hookLock(ctx, dir, "%1", 100); ok {
		t.Error("an older report took the lock after a newer one")
	}
	unlock, ok = hookLock(ctx, dir, "%1", 300)
	if !ok {
		t.Fatal("a newer report did not get the lock")
	}
	unlock()
}

func TestHookLockRefusesPlantedFiles(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	victim := filepath.Join(root, "victim")
	if err := os.WriteFile(victim, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A lock file that is a link to another file is never opened.
	linked := filepath.Join(root, "linked")
	if err := os.MkdirAll(linked, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, panestate.LockPath(linked, "%1")); err != nil {
		t.Fatal(err)
	}
	if _, ok := hookLock(ctx, linked, "%1", 1); ok {
		t.Error("took a lock through a symlink")
	}
	if b, _ := os.ReadFile(victim); !strings.HasPrefix(string(b), "keep me") {
		t.Errorf("the link's target was written: %q", b)
	}
	// A folder others may write to is not used.
	open := filepath.Join(root, "open")
	if err := os.MkdirAll(open, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, ok := hookLock(ctx, open, "%1", 1); ok {
		t.Error("took a lock in a folder writable by others")
	}
}
