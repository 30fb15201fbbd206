package panestate

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/filelock"
)

// LockDir is the folder of one server's lock files, private to the user and named after the
// server's socket: under $XDG_RUNTIME_DIR/taw where the session has a runtime folder (private to
// the user by definition), else beside tmux's own socket folder in ${TMUX_TMPDIR:-/tmp}, as
// taw-<uid>. PrivateDir checks either before anything is written there.
func LockDir(socketPath string, getenv func(string) string) string {
	sum := sha256.Sum256([]byte(socketPath))
	name := strings.Map(func(r rune) rune {
		if r == '/' || r < ' ' {
			return '_'
		}
		return r
	}, filepath.Base(socketPath))
	leaf := name + "-" + hex.EncodeToString(sum[:4])
	return filepath.Join(filelock.RuntimeDir(getenv, ""), leaf)
}

// LockPath is the lock file of one pane.
func LockPath(dir, paneID string) string {
	return filepath.Join(dir, "pane-"+strings.TrimPrefix(paneID, "%")+".lock")
}

// LockWait is how long a writer waits for others to finish with a pane before it answers busy.
// A writer holds the lock for two tmux calls; many reports at once on a loaded machine take
// turns well within it, and only a stopped writer holds it longer.
const LockWait = 5 * time.Second

// Lock takes the pane's lock, waiting at most LockWait for other writers to finish.
func Lock(dir, paneID string) (unlock func(), err error) {
	_, unlock, err = lockPane(dir, paneID, lockWithMemo(LockWait))
	return unlock, err
}

// LockWithin takes the pane's lock for a long-running process, trying for at most wait and
// leaving nothing behind when it gives up; a *filelock.BusyError says it did not get it.
func LockWithin(dir, paneID string, wait time.Duration) (unlock func(), err error) {
	_, unlock, err = lockPane(dir, paneID, func(path string) (Memo, func(), error) {
		unlock, err := filelock.Poll(path, wait)
		return Memo{}, unlock, err
	})
	return unlock, err
}

// lockPane checks the lock folder and takes the pane's lock in it the way take does.
func lockPane(dir, paneID string, take func(path string) (Memo, func(), error)) (Memo, func(), error) {
	if err := filelock.PrivateDir(dir); err != nil {
		return Memo{}, nil, fmt.Errorf("lock pane %s: %w", paneID, err)
	}
	memo, unlock, err := take(LockPath(dir, paneID))
	if err != nil {
		return Memo{}, nil, fmt.Errorf("lock pane %s: %w", paneID, err)
	}
	return memo, unlock, nil
}
