// Package unixsock binds a server's Unix socket: 0600, in place of a socket a dead server left
// behind, and never over a live server or over a file of another kind.
package unixsock

import (
	"errors"
	"fmt"
	"net"
	"os"
	"time"
)

// ErrLive means a server already answers on the socket.
var ErrLive = errors.New("another server already serves it")

// Listen binds path and makes the socket 0600. A socket nobody answers on is replaced; one a
// server answers on gives ErrLive (wrapped); anything else at path is refused, its message ending
// with hint (what else the user may do, "" for nothing more).
func Listen(path, hint string) (*net.UnixListener, error) {
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, fmt.Errorf("%s is there and is not a socket: remove it%s", path, hint)
		}
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return nil, fmt.Errorf("%s: %w", path, ErrLive)
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("remove the stale socket %s: %w", path, err)
		}
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("make %s private: %w", path, err)
	}
	return ln, nil
}
