// Package filelock is the one way taw serialises writers across processes: an advisory flock on
// a file of its own, released by the returned function (or when the process ends), and the one
// place where taw's private folders and files are made without trusting anything another user
// could have put there.
package filelock

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/taw-tmux/taw/helper/coded"
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
func (e *BusyError) ErrorCode() string { return coded.Busy }

// pollEvery is how often Poll tries again: short beside the waits it serves, long enough that a
// waiter costs nothing.
const pollEvery = 5 * time.Millisecond

// Lock takes the lock on path, creating the file, and waits at most wait for another holder
// to let go; a *BusyError says it did not. The wait is the kernel's, so waiters get the lock as
// it comes free however many there are; one that gives up leaves a goroutine behind that lets go
// of the lock as soon as it gets it, so Lock suits a short-lived process. The file is never
// opened through a symbolic link.
func Lock(path string, wait time.Duration) (unlock func(), err error) {
	_, unlock, err = LockOpen(path, wait)
	return unlock, err
}

// LockOpen is Lock that also hands the holder the locked file, open until unlock, so what it
// keeps in the file needs no second descriptor.
func LockOpen(path string, wait time.Duration) (*os.File, func(), error) {
	f, err := OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("lock %s: %w", path, err)
	}
	switch err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB); {
	case err == nil:
		return f, release(f), nil
	case !errors.Is(err, syscall.EWOULDBLOCK):
		f.Close()
		return nil, nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if wait <= 0 {
		f.Close()
		return nil, nil, &BusyError{Path: path, Wait: wait}
	}
	got := make(chan error, 1)
	var mu sync.Mutex
	abandoned := false
	go func() {
		err := flock(f, syscall.LOCK_EX)
		mu.Lock()
		defer mu.Unlock()
		if abandoned {
			f.Close() // too late: whoever waited has gone; closing lets go
			return
		}
		got <- err
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case err := <-got:
		if err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("lock %s: %w", path, err)
		}
		return f, release(f), nil
	case <-timer.C:
		mu.Lock()
		defer mu.Unlock()
		select {
		case err := <-got: // taken just as the wait ran out
			if err == nil {
				return f, release(f), nil
			}
			f.Close()
			return nil, nil, fmt.Errorf("lock %s: %w", path, err)
		default:
		}
		abandoned = true
		return nil, nil, &BusyError{Path: path, Wait: wait}
	}
}

// Poll takes the lock on path, trying again every few milliseconds for at most wait, and leaves
// nothing behind when it gives up: for a long-running process (the watcher) that must not pile
// up waiters on a lock a stopped process holds.
func Poll(path string, wait time.Duration) (unlock func(), err error) {
	f, err := OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	deadline := time.Now().Add(wait)
	for {
		err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return release(f), nil
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
}

func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

func release(f *os.File) func() {
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
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
