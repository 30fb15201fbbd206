package tmux

import (
	"errors"
	"io"
	"syscall"
	"time"
)

// serverConn is a blocking connection to a tmux server's socket, driven by plain system calls.
// A call makes one connection and waits on nothing else, so Go's network poller (an epoll
// descriptor, a thread parked in it and a wake-up for every read) would cost more than the
// call; the kernel's socket timeouts bound every wait instead.
type serverConn struct {
	fd       int
	deadline time.Time
	armed    time.Time // when the timeouts were last set to what was left of the deadline
}

// rearmAfter is how old the timeouts may get before a wait sets them again: a wait ends at
// most this long after the deadline, and a call that is over within it sets them once.
const rearmAfter = 10 * time.Millisecond

// errTimedOut is a wait on the socket that outlasted the call's deadline.
var errTimedOut = errors.New("timed out")

// dialServer connects to the unix socket at path, every wait bounded by deadline.
func dialServer(path string, deadline time.Time) (*serverConn, error) {
	syscall.ForkLock.RLock()
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, err
	}
	c := &serverConn{fd: fd, deadline: deadline}
	if err := c.setTimeouts(); err != nil {
		c.Close()
		return nil, err
	}
	// Linux bounds a connect's wait (a server whose backlog is full) by the send timeout.
	if err := c.retry(func() error { return syscall.Connect(fd, &syscall.SockaddrUnix{Name: path}) }); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// setTimeouts bounds the next read and write by what is left of the deadline.
func (c *serverConn) setTimeouts() error {
	c.armed = time.Now()
	left := c.deadline.Sub(c.armed)
	if left <= 0 {
		return errTimedOut
	}
	if left < time.Microsecond {
		left = time.Microsecond // zero would mean no limit
	}
	tv := syscall.NsecToTimeval(left.Nanoseconds())
	if err := syscall.SetsockoptTimeval(c.fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv); err != nil {
		return err
	}
	return syscall.SetsockoptTimeval(c.fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tv)
}

// retry runs one system call until it is not interrupted by a signal (a wait with a timeout is
// never restarted by the kernel), shortening the timeouts to what is left each time.
func (c *serverConn) retry(call func() error) error {
	if time.Since(c.armed) > rearmAfter {
		if err := c.setTimeouts(); err != nil {
			return err
		}
	}
	for {
		err := call()
		switch {
		case err == syscall.EINTR:
			if err := c.setTimeouts(); err != nil {
				return err
			}
		case err == syscall.EAGAIN || err == syscall.EWOULDBLOCK:
			return errTimedOut
		default:
			return err
		}
	}
}

func (c *serverConn) Read(b []byte) (int, error) {
	var n int
	err := c.retry(func() (err error) {
		n, err = syscall.Read(c.fd, b)
		return err
	})
	if err == nil && n == 0 && len(b) > 0 {
		return 0, io.EOF
	}
	return n, err
}

// Write writes all of b.
func (c *serverConn) Write(b []byte) (int, error) {
	done := 0
	for done < len(b) {
		var n int
		err := c.retry(func() (err error) {
			n, err = syscall.Write(c.fd, b[done:])
			return err
		})
		if err != nil {
			return done, err
		}
		done += n
	}
	return done, nil
}

func (c *serverConn) Close() error { return syscall.Close(c.fd) }
