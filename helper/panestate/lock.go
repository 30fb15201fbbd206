package panestate

import (
	"github.com/taw-tmux/taw/helper/filelock"

	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// LockDir is the folder of one server's lock files: beside tmux's own socket folder, named after
// the socket, private to the user.
func LockDir(socketPath string, getenv func(string) string) string {
	base := getenv("TMUX_TMPDIR")
	if base == "" {
		base = "/tmp"
	}
	sum := sha256.Sum256([]byte(socketPath))
	name := strings.Map(func(r rune) rune {
		if r == '/' || r < ' ' {
			return '_'
		}
		return r
	}, filepath.Base(socketPath))
	return filepath.Join(base, fmt.Sprintf("taw-%d", os.Getuid()), name+"-"+hex.EncodeToString(sum[:4]))
}

// LockPath is the lock file of one pane.
func LockPath(dir, paneID string) string {
	return filepath.Join(dir, "pane-"+strings.TrimPrefix(paneID, "%")+".lock")
}

// Lock takes the pane's lock, waiting for another writer to finish. Every tmux call a writer makes
// under it has a time limit, so the wait is bounded.
func Lock(dir, paneID string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("lock pane %s: %w", paneID, err)
	}
	return filelock.Lock(LockPath(dir, paneID))
}
