// Package filelock is the one way taw serialises writers across processes: an advisory flock on
// a file of its own, released by the returned function (or when the process ends), and the one
// place where taw's private folders and files are made without trusting anything another user
// could have put there.
package filelock

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// BusyError says another holder kept the lock for longer than the wait.
type BusyError struct {
	Path string
	Wait time.Duration
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("%s is held by another writer for more than %s; try again (a stopped process may be holding it)", e.Path, e.Wait)
}

// ErrorCode is the stable code of a lock not taken in time.
func (e *BusyError) ErrorCode() string { return "busy" }

// pollEvery is how often a waiting Lock tries again: short beside the waits it serves, long
// enough that a waiter costs nothing.
const pollEvery = 5 * time.Millisecond

// Lock takes the lock on path, creating the file, and waits at most wait for another holder
// to let go; a *BusyError says it did not. The file is never opened through a symbolic link.
func Lock(path string, wait time.Duration) (unlock func(), err error) {
	f, err := OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	deadline := time.Now().Add(wait)
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if !time.Now().Before(deadline) {
			f.Close()
			return nil, &BusyError{Path: path, Wait: wait}
		}
		time.Sleep(pollEvery)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// TryLock takes the lock on path only if no one holds it; held says whether someone does.
func TryLock(path string) (unlock func(), held bool, err error) {
	unlock, err = Lock(path, 0)
	var busy *BusyError
	if errors.As(err, &busy) {
		return nil, true, nil
	}
	return unlock, false, err
}
