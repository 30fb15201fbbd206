//go:build linux

package watch

import (
	"errors"
	"os"
	"syscall"
)

// Open file description locks (Linux 3.15+): owned by the open file, not the process, so they
// conflict within one process too and closing another descriptor of the file keeps them.
const (
	fOFDGetLk = 36
	fOFDSetLk = 37
)

func wholeFile(typ int16) *syscall.Flock_t {
	return &syscall.Flock_t{Type: typ, Whence: 0, Start: 0, Len: 0}
}

// tryLock takes the write lock on f without waiting; false when someone else holds it.
func tryLock(f *os.File) (bool, error) {
	for {
		err := syscall.FcntlFlock(f.Fd(), fOFDSetLk, wholeFile(syscall.F_WRLCK))
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EACCES):
			return false, nil
		}
		return false, err
	}
}

// lockedByOther says whether another open file holds f's lock, without taking it.
func lockedByOther(f *os.File) bool {
	lk := wholeFile(syscall.F_WRLCK)
	if err := syscall.FcntlFlock(f.Fd(), fOFDGetLk, lk); err != nil {
		return false
	}
	return lk.Type != syscall.F_UNLCK
}
