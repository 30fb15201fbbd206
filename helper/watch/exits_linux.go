//go:build linux

package watch

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// exitWatch waits, at no cost, for the process in front of an agent's pane to end: a pidfd
// becomes readable when its process ends, and the runtime's poller waits on it.
type exitWatch struct {
	pid  int
	file *os.File // nil: the process had ended before the watch began
}

// exitSettle is how long after a process ends the watcher is woken: a wrapper that ran the agent
// (a shell's "agent; exec $SHELL") goes on at once, and the look then sees what it became.
const exitSettle = 50 * time.Millisecond

// startExitWatch watches pid and calls ended (from a goroutine of its own) exitSettle after it
// ends, or after now when it has ended already: the look that named the agent can come just
// before its end. nil when the kernel has no pidfds (the next look sees the end).
func startExitWatch(pid int, ended func(pid int)) *exitWatch {
	tell := func() {
		time.Sleep(exitSettle)
		ended(pid)
	}
	fd, err := unix.PidfdOpen(pid, unix.PIDFD_NONBLOCK)
	if errors.Is(err, unix.ESRCH) {
		go tell()
		return &exitWatch{pid: pid}
	}
	if err != nil {
		return nil
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil
	}
	go func() {
		// The callback says whether the process has ended; until it has, the poller waits.
		// Closing the file ends the wait with an error, and nothing is told.
		err := rc.Read(func(fd uintptr) bool {
			n, _ := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 0)
			return n > 0
		})
		if err == nil {
			tell()
		}
	}()
	return &exitWatch{pid: pid, file: f}
}

func (x *exitWatch) stop() {
	if x.file != nil {
		x.file.Close()
	}
}
