package herdrsock

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"

	"github.com/taw-tmux/taw/helper/filelock"
)

// SocketPath is where the herdr socket of one tmux server lives: in $XDG_RUNTIME_DIR/taw when
// the user has a runtime folder, else in ${TMUX_TMPDIR:-/tmp}/taw-<uid>-herdr; named after the
// tmux server's socket so that each server has its own, and short enough for a socket address.
func SocketPath(tmuxSocket string, getenv func(string) string) string {
	sum := sha256.Sum256([]byte(tmuxSocket))
	name := "herdr-" + hex.EncodeToString(sum[:6]) + ".sock"
	return filepath.Join(filelock.RuntimeDir(getenv, "-herdr"), name)
}

// PrivateDir makes sure dir is a folder of the user's own that nobody else can enter (see
// filelock.ClosedDir).
func PrivateDir(dir string) error {
	if err := filelock.ClosedDir(dir); err != nil {
		return fmt.Errorf("socket folder: %w", err)
	}
	return nil
}
