package herdrsock

import (
	"net"
	"os"
	"path/filepath"
	"syscall"

	"github.com/taw-tmux/taw/helper/unixsock"
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
	ln, err := unixsock.Listen(path, "")
	if err != nil {
		return nil, err
	}
	ln.SetUnlinkOnClose(false)
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
