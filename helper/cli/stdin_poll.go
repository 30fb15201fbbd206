package cli

import (
	"time"

	"golang.org/x/sys/unix"
)

// readHeadNow reads up to limit bytes of the descriptor fd, waiting at most wait for them, as
// readHead does: ended says the input ended (or failed) within them, and a head that does not
// come in time is none, the rest left to drain. ok false: fd cannot be polled and nothing was
// read, so the caller reads it another way.
func readHeadNow(fd, limit int, wait time.Duration) (head []byte, ended, ok bool) {
	deadline := time.Now().Add(wait)
	buf := make([]byte, limit)
	n := 0
	for n < limit {
		left := time.Until(deadline)
		if left <= 0 {
			return nil, false, true
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		ready, err := unix.Poll(fds, int((left+time.Millisecond-1)/time.Millisecond))
		switch {
		case err == unix.EINTR || (err == nil && ready == 0):
			continue
		case err != nil && n == 0:
			return nil, false, false
		case err != nil:
			return buf[:n], true, true
		}
		m, err := unix.Read(fd, buf[n:])
		switch {
		case err == unix.EINTR || err == unix.EAGAIN:
			continue
		case err != nil, m == 0:
			return buf[:n], true, true
		}
		n += m
	}
	return buf, false, true
}
