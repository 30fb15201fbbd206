package filelock

import (
	"path/filepath"
	"testing"
	"time"
)

func TestLockExcludesOthers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	unlock, err := Lock(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, held, err := TryLock(path); err != nil || !held {
		t.Fatalf("TryLock while locked: held=%v err=%v", held, err)
	}
	unlock()
	u2, held, err := TryLock(path)
	if err != nil || held {
		t.Fatalf("TryLock after unlock: held=%v err=%v", held, err)
	}
	u2()
}
