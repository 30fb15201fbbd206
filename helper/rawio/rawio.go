// Package rawio reads and writes non-blocking descriptors with raw system calls, waiting for
// readiness through the runtime's poller. A plain read or write tells the scheduler it is
// entering a system call, and the first one after a quiet spell wakes the runtime's monitor
// thread: on a hot path that wakes for every chunk (an echo, a stream of output), that is a
// second thread woken for nothing, competing with tmux and the pane for the CPU. The calls here
// never block, so they need not tell the scheduler.
package rawio

import (
	"io"
	"syscall"
	"unsafe"
)

// Reader reads a non-blocking descriptor through its RawConn.
type Reader struct{ rc syscall.RawConn }

// NewReader reads from rc (from SyscallConn of a net.Conn or an *os.File that the runtime polls).
func NewReader(rc syscall.RawConn) *Reader { return &Reader{rc: rc} }

// ReaderOf reads r with raw system calls when it is a descriptor the runtime polls (a net.Conn,
// an *os.File), and is r itself otherwise. Deadlines set on r still hold.
func ReaderOf(r io.Reader) io.Reader {
	if sc, ok := r.(syscall.Conn); ok {
		if rc, err := sc.SyscallConn(); err == nil {
			return NewReader(rc)
		}
	}
	return r
}

// Read reads what is there, waiting until something is; 0 bytes at the end of input is io.EOF.
func (r *Reader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := r.rc.Read(func(fd uintptr) bool {
		for {
			n, errno = read(fd, p)
			if errno != syscall.EINTR {
				return errno != syscall.EAGAIN
			}
		}
	})
	switch {
	case err != nil:
		return 0, err
	case errno != 0:
		return 0, errno
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// Writer writes a non-blocking descriptor through its RawConn.
type Writer struct{ rc syscall.RawConn }

// WriterOf writes w with raw system calls when it is a descriptor the runtime polls (a net.Conn,
// an *os.File), and is w itself otherwise. Deadlines set on w still hold.
func WriterOf(w io.Writer) io.Writer {
	if sc, ok := w.(syscall.Conn); ok {
		if rc, err := sc.SyscallConn(); err == nil {
			return &Writer{rc: rc}
		}
	}
	return w
}

// Write writes all of b, waiting for room whenever the descriptor is full.
func (w *Writer) Write(b []byte) (int, error) {
	n := 0
	var errno syscall.Errno
	err := w.rc.Write(func(fd uintptr) bool {
		for n < len(b) {
			m, e := write(fd, b[n:])
			switch {
			case e == syscall.EINTR:
				continue
			case e == syscall.EAGAIN:
				return false // full: wait in the poller, then go on from n
			case e != 0:
				errno = e
				return true
			}
			n += m
		}
		return true
	})
	switch {
	case err != nil:
		return n, err
	case errno != 0:
		return n, errno
	}
	return n, nil
}

// TryWrite writes what the descriptor takes now, never waiting, and says how much that was.
func TryWrite(rc syscall.RawConn, b []byte) int {
	n := 0
	_ = rc.Write(func(fd uintptr) bool {
		for n < len(b) {
			m, errno := write(fd, b[n:])
			if errno == syscall.EINTR {
				continue
			}
			if errno != 0 || m <= 0 {
				break // full (or failing): the caller carries on with the rest
			}
			n += m
		}
		return true
	})
	return n
}

func read(fd uintptr, p []byte) (int, syscall.Errno) {
	r, _, errno := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	return int(r), errno
}

func write(fd uintptr, p []byte) (int, syscall.Errno) {
	r, _, errno := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	return int(r), errno
}
