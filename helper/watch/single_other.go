//go:build !linux

package watch

import (
	"os"
	"syscall"
)

// tryLock takes an exclusive flock on f without waiting; false when someone else holds it.
func tryLock(f *os.File) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch err {
		case nil:
			return true, nil
		case syscall.EINTR:
			continue
		case syscall.EWOULDBLOCK:
			return false, nil
		}
		return false, err
	}
}

// lockedByOther says whether someone holds f's lock. Without a way to ask, it takes the lock for
// an instant, which a watcher starting at that very instant may lose to (it then exits, and the
// next load starts it).
func lockedByOther(f *os.File) bool {
	held, err := tryLock(f)
	if err != nil {
		return false
	}
	if held {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return false
	}
	return true
}
