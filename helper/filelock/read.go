package filelock

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// TooLargeError says a file taw reads is larger than any it writes or expects.
type TooLargeError struct {
	Path string
	Max  int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d bytes, more than taw reads from it: is it the right file?", e.Path, e.Max)
}

// ErrorCode is the stable code of a file too large to read.
func (e *TooLargeError) ErrorCode() string { return "file_too_large" }

// NotRegularError says a file taw reads is not a regular file: a FIFO (which would block the
// read until someone writes), a device (/dev/zero, endless), a folder or a socket.
type NotRegularError struct {
	Path string
	Kind string
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file: taw reads only regular files; put a file there", e.Path, e.Kind)
}

// ErrorCode is the stable code of a file that is not a regular file.
func (e *NotRegularError) ErrorCode() string { return "file_not_regular" }

// ReadFile reads path, which must be a regular file (through links, as a dotfile may be one) of at
// most max bytes. It is opened without blocking, so a FIFO put in its place cannot hang the read,
// and refused with a *NotRegularError when it is no regular file; one larger than max is refused
// with a *TooLargeError before anything is read, and one that grows past it while being read too.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > max {
		return nil, &TooLargeError{Path: path, Max: max}
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, &TooLargeError{Path: path, Max: max}
	}
	return b, nil
}

// OpenRegular opens path for reading as ReadFile does: without blocking, and only a regular file.
func OpenRegular(path string) (*os.File, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if kind := fileKind(uint32(st.Mode)); kind != "" {
		syscall.Close(fd)
		return nil, &NotRegularError{Path: path, Kind: kind}
	}
	// A regular file reads the same blocking or not; the flag only kept the open from waiting.
	_ = syscall.SetNonblock(fd, false)
	return os.NewFile(uintptr(fd), path), nil
}

// fileKind names what a mode is when it is not a regular file, "" when it is.
func fileKind(mode uint32) string {
	switch mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		return ""
	case syscall.S_IFIFO:
		return "a FIFO"
	case syscall.S_IFCHR, syscall.S_IFBLK:
		return "a device"
	case syscall.S_IFDIR:
		return "a folder"
	case syscall.S_IFSOCK:
		return "a socket"
	}
	return "not a file"
}
