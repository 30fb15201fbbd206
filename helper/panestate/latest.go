package panestate

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/taw-tmux/taw/helper/filelock"
)

// A report that waits "latest only" (LatestOnly) records itself as the newest report waiting
// for the pane in the pane's lock file, before the memo (memoOffset), and gives up as soon as a
// newer one has recorded itself. The record is changed under a record lock of its own, apart
// from the flock writers queue on.
//
// A hook's seq is taken when its taw starts, and two taws forked a moment apart may start in
// the other order: within orderWindow of each other the script's pid decides which is newer (the
// agent runs its hooks one after the other, so a later event has the higher pid), and a report
// that is newer by its pid but not by its clock takes the seq after the one recorded.

// orderWindow is how far apart (in seq, nanoseconds) two reports are ordered by the pids of
// their scripts rather than by their clocks.
const orderWindow = 200 * uint64(time.Millisecond)

// maxPidGap is how far apart the pids of two scripts in orderWindow can be, unless the pid
// counter wrapped between them.
const maxPidGap = 1 << 14

// waiting is the newest report of a pane recorded in its lock file.
type waiting struct {
	seq   uint64
	order int // the hook script's pid, 0 when unknown
}

func (w waiting) String() string { return fmt.Sprintf("%020d %010d\n", w.seq, w.order) }

// newerThan says whether w is a newer report than o.
func (w waiting) newerThan(o waiting) bool {
	if w.order == o.order && w.seq == o.seq {
		return false
	}
	gap := w.seq - o.seq
	if o.seq > w.seq {
		gap = o.seq - w.seq
	}
	// Pids are near each other unless the pid counter wrapped between the two: far fewer than
	// maxPidGap processes start within orderWindow, and Linux's smallest pid counter (32768)
	// wraps to a gap of more.
	pidGap := w.order - o.order
	if pidGap < 0 {
		pidGap = -pidGap
	}
	if w.order > 0 && o.order > 0 && w.order != o.order && gap < orderWindow && pidGap < maxPidGap {
		return w.order > o.order
	}
	return w.seq > o.seq
}

// readWaiting is the report a lock file records, zero when none.
func readWaiting(file *os.File) waiting {
	var b [40]byte
	n, _ := file.ReadAt(b[:], 0)
	fields := strings.Fields(string(b[:n]))
	var w waiting
	if len(fields) > 0 {
		w.seq, _ = strconv.ParseUint(fields[0], 10, 64)
	}
	if len(fields) > 1 {
		w.order, _ = strconv.Atoi(fields[1])
	}
	return w
}

// lockLatest takes the pane's lock for a report of seq and order, unless a newer report of the
// pane is waiting (ErrSuperseded); it waits for at most ctx. It returns the seq the report
// carries, which may be past seq (see above). The caller has checked the folder.
func lockLatest(ctx context.Context, path string, seq uint64, order int) (Memo, func(), uint64, error) {
	file, err := filelock.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return Memo{}, nil, 0, err
	}
	// The seq is written into this file: it must be the user's own, not one planted for them.
	if fi, err := file.Stat(); err != nil || !ownedPrivately(fi) {
		file.Close()
		return Memo{}, nil, 0, &filelock.UnsafeError{Path: path, Reason: "it is not a private file of yours"}
	}
	mine := waiting{seq: seq, order: order}
	claimed := false
	// check records this report as the latest waiting, or says a newer one is.
	check := func() error {
		if err := markLock(file, true); err != nil {
			return err
		}
		defer markLock(file, false)
		stored := readWaiting(file)
		if stored.newerThan(mine) {
			return ErrSuperseded
		}
		if !claimed {
			if stored.seq >= mine.seq {
				mine.seq = stored.seq + 1
			}
			if _, err := file.WriteAt([]byte(mine.String()), 0); err != nil {
				return err
			}
			claimed = true
		}
		return nil
	}
	if err := check(); err != nil {
		file.Close()
		return Memo{}, nil, 0, err
	}
	wait := time.Millisecond
	for {
		err := syscall.Flock(int(file.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if err != syscall.EWOULDBLOCK && err != syscall.EINTR {
			file.Close()
			return Memo{}, nil, 0, err
		}
		select {
		case <-ctx.Done():
			file.Close()
			return Memo{}, nil, 0, ctx.Err()
		case <-time.After(wait):
		}
		if err := check(); err != nil {
			file.Close()
			return Memo{}, nil, 0, err
		}
		wait = min(2*wait, 20*time.Millisecond)
	}
	release := func() {
		_ = syscall.Flock(int(file.Fd()), syscall.LOCK_UN)
		file.Close()
	}
	if err := check(); err != nil {
		release()
		return Memo{}, nil, 0, err
	}
	return MemoIn(file), release, mine.seq, nil
}

// markLock takes (or lets go of) the record lock that guards the waiting report in the lock
// file: a byte past its end, apart from the flock writers queue on.
func markLock(file *os.File, take bool) error {
	lk := syscall.Flock_t{Type: syscall.F_UNLCK, Whence: 0, Start: 1 << 20, Len: 1}
	cmd := syscall.F_SETLK
	if take {
		lk.Type, cmd = syscall.F_WRLCK, syscall.F_SETLKW
	}
	for {
		err := syscall.FcntlFlock(file.Fd(), cmd, &lk)
		if err != syscall.EINTR {
			return err
		}
	}
}

// ownedPrivately says whether fi is a regular file of the user's that no one else may write.
func ownedPrivately(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid() && fi.Mode().Perm()&0o022 == 0 && fi.Mode().IsRegular()
}
