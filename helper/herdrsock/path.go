package herdrsock

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// SocketPath is where the herdr socket of one tmux server lives: in $XDG_RUNTIME_DIR/taw when
// the user has a runtime folder, else in ${TMUX_TMPDIR:-/tmp}/taw-<uid>-herdr; named after the
// tmux server's socket so that each server has its own, and short enough for a socket address.
func SocketPath(tmuxSocket string, getenv func(string) string) string {
	sum := sha256.Sum256([]byte(tmuxSocket))
	name := "herdr-" + hex.EncodeToString(sum[:6]) + ".sock"
	if rt := getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(rt) {
		return filepath.Join(rt, "taw", name)
	}
	base := getenv("TMUX_TMPDIR")
	if !filepath.IsAbs(base) {
		base = "/tmp"
	}
	return filepath.Join(base, fmt.Sprintf("taw-%d-herdr", os.Getuid()), name)
}

// PrivateDir makes sure dir is a folder of the user's own that nobody else can enter: created
// 0700 when missing, refused when it is a link, not a folder, or someone else's; its mode is
// narrowed to 0700 when it is the user's and wider. The folder above must exist.
func PrivateDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !os.IsExist(err) {
		return fmt.Errorf("make the socket folder %s: %w", dir, err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("check the socket folder %s: %w", dir, err)
	}
	if fi.Mode()&os.ModeSymlink != 0 || !fi.IsDir() {
		return fmt.Errorf("the socket folder %s is not a folder (a link or a file is there): remove it", dir)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) != os.Getuid() {
		return fmt.Errorf("the socket folder %s belongs to someone else: remove it or set XDG_RUNTIME_DIR", dir)
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("make the socket folder %s private: %w", dir, err)
		}
	}
	return nil
}
