package daemon

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"

	"github.com/taw-tmux/taw/helper/filelock"
	"github.com/taw-tmux/taw/helper/unixsock"
)

// DefaultSocket is where the daemon listens unless told otherwise: $XDG_RUNTIME_DIR/taw/mux.sock,
// or /tmp/taw-<uid>/mux.sock when XDG_RUNTIME_DIR is unset.
// (The folder is filelock's runtime folder, so a planted one is passed over the same way.)
func DefaultSocket(getenv func(string) string) string {
	return filepath.Join(filelock.RuntimeDir(getenv, ""), "mux.sock")
}

// maxSocketPath is what fits in sockaddr_un.sun_path with its NUL.
const maxSocketPath = 107

// ErrAlreadyRunning means a daemon already answers on the socket.
var ErrAlreadyRunning = unixsock.ErrLive

// Listen binds the socket: private is true for the default location, whose directory is made
// (or must already be) 0700 and ours. The socket itself is 0600. A stale socket left by a dead
// daemon is replaced; a live one is not.
func Listen(path string, private bool) (*net.UnixListener, error) {
	if len(path) > maxSocketPath {
		return nil, fmt.Errorf("socket path %s is %d bytes, over the %d a Unix socket allows: pick a shorter --socket", path, len(path), maxSocketPath)
	}
	dir := filepath.Dir(path)
	if private {
		if err := privateDir(dir); err != nil {
			return nil, err
		}
	}
	ln, err := unixsock.Listen(path, " or pick another --socket")
	if err != nil {
		return nil, err
	}
	ln.SetUnlinkOnClose(true)
	return ln, nil
}

// privateDir makes dir 0700, or checks that an existing one is ours and tightens it.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("make socket directory: %w", err)
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("check socket directory: %w", err)
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !st.IsDir() || !ok || int(sys.Uid) != os.Getuid() {
		return fmt.Errorf("socket directory %s is not a directory owned by you: remove it or pick another --socket", dir)
	}
	if st.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("make socket directory 0700: %w", err)
		}
	}
	return nil
}

// peerPID reads the peer's credentials (SO_PEERCRED) and accepts only this user's processes.
func peerPID(nc net.Conn) (int, error) {
	uc, ok := nc.(*net.UnixConn)
	if !ok {
		return 0, errors.New("not a unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0, err
	}
	var cred *syscall.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return 0, err
	}
	if credErr != nil {
		return 0, credErr
	}
	if cred.Pid <= 0 {
		return 0, errors.New("peer has no pid")
	}
	if int(cred.Uid) != os.Getuid() {
		return 0, fmt.Errorf("peer uid %d is not this user's", cred.Uid)
	}
	return int(cred.Pid), nil
}
