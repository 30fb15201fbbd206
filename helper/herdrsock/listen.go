package herdrsock

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// Listener is the bound socket; Close removes the socket file only while it is still this one.
type Listener struct {
	*net.UnixListener
	path string
	ino  uint64
}

// Listen binds the socket at path, 0600 in a private folder (PrivateDir). A socket file left by a
// server that crashed is replaced; anything else at path (a file, a link, a live server) is
// refused.
func Listen(path string) (*Listener, error) {
	if err := PrivateDir(filepath.Dir(path)); err != nil {
		return nil, err
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, fmt.Errorf("%s is there and is not a socket: remove it", path)
		}
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return nil, fmt.Errorf("another server already serves %s", path)
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("remove the stale socket %s: %w", path, err)
		}
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	ln.SetUnlinkOnClose(false)
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("make %s private: %w", path, err)
	}
	l := &Listener{UnixListener: ln, path: path}
	if fi, err := os.Lstat(path); err == nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			l.ino = st.Ino
		}
	}
	return l, nil
}

// Close stops listening and removes the socket file if it is still the one this listener bound.
func (l *Listener) Close() error {
	err := l.UnixListener.Close()
	if fi, serr := os.Lstat(l.path); serr == nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Ino == l.ino {
			_ = os.Remove(l.path)
		}
	}
	return err
}
