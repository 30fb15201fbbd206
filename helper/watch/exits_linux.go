//go:build linux

package watch

import (
	"os"

	"golang.org/x/sys/unix"
)

// exitWatch waits, at no cost, for the process in front of an agent's pane to end: a pidfd
// becomes readable when its process ends, and the runtime's poller waits on it.
type exitWatch struct {
	pid  int
	file *os.File
}

// startExitWatch watches pid and sends on wake when it ends; nil when the kernel has no pidfds
// or pid is gone already (the next look sees that).
func startExitWatch(pid int, wake chan<- struct{}) *exitWatch {
	fd, err := unix.PidfdOpen(pid, unix.PIDFD_NONBLOCK)
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
		// Closing the file ends the wait with an error, and nothing is sent.
		err := rc.Read(func(fd uintptr) bool {
			n, _ := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 0)
			return n > 0
		})
		if err == nil {
			select {
			case wake <- struct{}{}:
			default:
			}
		}
	}()
	return &exitWatch{pid: pid, file: f}
}

func (x *exitWatch) stop() { x.file.Close() }
