package tmux

import (
	"errors"
	"fmt"
	"io"
	"syscall"
	"time"
)

// serverConn is a blocking connection to a tmux server's socket, driven by plain system calls.
// A call makes one connection and waits on nothing else, so Go's network poller (an epoll
// descriptor, a thread parked in it and a wake-up for every read) would cost more than the
// call; the kernel's socket timeouts bound every wait instead.
//
// A call's patience is how long the server may go without progress, not how long the call may
// take: when a wait outlasts it and the server has been on a CPU since the last look, or waits
// for one (a busy machine), the deadline moves on by the patience again, up to the caller's own
// deadline. A server that is gone, stopped or stuck still ends the call within its patience.
type serverConn struct {
	fd       int
	deadline time.Time
	armed    time.Time // when the timeouts were last set to what was left of the deadline

	patience time.Duration
	limit    time.Time // the caller's deadline, past which nothing waits; zero for none
	progress time.Time // when the server was last seen at work (the call's start at first)
	pid      int       // the server's, once looked up
	ran      int64     // the server's CPU time at the last look
	start    time.Time
}

// progressLooks is how many looks at the server a patience has: a wait is armed for at most
// patience/progressLooks past the last look, so a call that ends within that costs no look.
const progressLooks = 4

// rearmAfter is how old the timeouts may get before a wait sets them again: a wait ends at
// most this long after the deadline, and a call that is over within it sets them once.
const rearmAfter = 10 * time.Millisecond

// errTimedOut is a wait on the socket that outlasted the call's deadline.
var errTimedOut = errors.New("timed out")

// dialServer connects to the unix socket at path. Each wait may last patience while the server
// makes progress (see serverConn), never past limit (zero: no limit).
func dialServer(path string, patience time.Duration, limit time.Time) (*serverConn, error) {
	syscall.ForkLock.RLock()
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, err
	}
	now := time.Now()
	c := &serverConn{fd: fd, patience: patience, limit: limit, progress: now, start: now}
	c.deadline = c.capped(now.Add(patience / progressLooks))
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

func (c *serverConn) capped(t time.Time) time.Time {
	if !c.limit.IsZero() && c.limit.Before(t) {
		return c.limit
	}
	return t
}

// working says whether the server has worked since the last look (or waits to), and if so
// moves the deadline on. It is asked only when a wait has run out.
func (c *serverConn) working() bool {
	now := time.Now()
	if !c.limit.IsZero() && !now.Before(c.limit) {
		return false
	}
	if c.pid == 0 {
		if c.pid = serverPID(c.fd); c.pid > 0 {
			c.ran, _, _ = serverWork(c.pid)
		}
	}
	if c.pid > 0 {
		if ran, runnable, ok := serverWork(c.pid); ok && (ran != c.ran || runnable) {
			c.ran, c.progress = ran, now
		}
	}
	if now.Sub(c.progress) >= c.patience {
		return false
	}
	// The next look comes a fraction of the patience on, or when the patience since the last
	// progress is up, whichever is first.
	next := now.Add(c.patience / progressLooks)
	if end := c.progress.Add(c.patience); end.Before(next) {
		next = end
	}
	c.deadline = c.capped(next)
	return true
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
			if !c.working() {
				return errTimedOut
			}
			if err := c.setTimeouts(); err != nil {
				return err
			}
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

// timedOut says why a call that timed out gave up.
func (c *serverConn) timedOut() string {
	if !c.limit.IsZero() && !time.Now().Before(c.limit) {
		return "tmux did not answer in time"
	}
	if c.pid > 0 {
		return fmt.Sprintf("tmux did not answer within %s: the server made no progress for %s", time.Since(c.start).Round(time.Millisecond), c.patience)
	}
	return fmt.Sprintf("tmux did not answer within %s", c.patience)
}
