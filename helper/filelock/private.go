package filelock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// UnsafeError says a folder or file taw would write in could be changed by another user, or is
// a link: taw refuses to use it rather than write where someone else points it.
type UnsafeError struct {
	Path   string
	Reason string
}

func (e *UnsafeError) Error() string {
	return fmt.Sprintf("refusing to use %s: %s; remove it, or point TMUX_TMPDIR or XDG_RUNTIME_DIR at a folder of your own", e.Path, e.Reason)
}

// ErrorCode is the stable code of every refusal.
func (e *UnsafeError) ErrorCode() string { return "unsafe_path" }

// DefaultRuntimeDir is where the folder of one user's runtime files (locks, sockets) goes:
// $XDG_RUNTIME_DIR/taw where the session has a runtime folder (private to the user by
// definition), else taw-<uid><suffix> beside tmux's own socket folder in ${TMUX_TMPDIR:-/tmp}. A
// relative XDG_RUNTIME_DIR or TMUX_TMPDIR is taken for unset, so every process finds the same
// folder whatever its working folder. RuntimeDir is the folder taw really uses.
func DefaultRuntimeDir(getenv func(string) string, suffix string) string {
	if rt := getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(rt) {
		return filepath.Join(rt, "taw")
	}
	return filepath.Join(tmpBase(getenv), fmt.Sprintf("taw-%d%s", os.Getuid(), suffix))
}

// tmpBase is ${TMUX_TMPDIR:-/tmp}, where tmux keeps its socket folder.
func tmpBase(getenv func(string) string) string {
	if base := getenv("TMUX_TMPDIR"); filepath.IsAbs(base) {
		return base
	}
	return "/tmp"
}

// PrivateDir makes dir, and every missing folder on the way to it, mode 0700, and checks that
// nobody else can change what is in it: every folder on the way is a real folder (a link only
// when root or the user owns it) owned by root or the user, and one that others may write in
// is sticky (as /tmp is), so no one else can move the user's entries; dir itself is the user's
// and writable by no one else. A shared /tmp is therefore fine, and a folder another user made
// there first is refused.
func PrivateDir(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("folder %s: %w", dir, err)
	}
	uid := os.Getuid()
	parts := strings.Split(strings.TrimPrefix(abs, "/"), "/")
	cur := "/"
	for i, part := range parts {
		if part == "" {
			continue
		}
		cur = filepath.Join(cur, part)
		last := i == len(parts)-1
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			if err := os.Mkdir(cur, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("create folder %s: %w", cur, err)
			}
			fi, err = os.Lstat(cur)
		}
		if err != nil {
			return fmt.Errorf("folder %s: %w", cur, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			if last {
				return &UnsafeError{cur, "it is a symbolic link, not a folder"}
			}
			if o := owner(fi); o != 0 && o != uid {
				return &UnsafeError{cur, fmt.Sprintf("it is a symbolic link owned by uid %d", o)}
			}
			if fi, err = os.Stat(cur); err != nil {
				return fmt.Errorf("folder %s: %w", cur, err)
			}
		}
		if !fi.IsDir() {
			return &UnsafeError{cur, "it is not a folder"}
		}
		o := owner(fi)
		perm := fi.Mode()
		switch {
		case last && o != uid:
			return &UnsafeError{cur, fmt.Sprintf("it belongs to uid %d, not to you (uid %d)", o, uid)}
		case last && perm&0o022 != 0:
			return &UnsafeError{cur, fmt.Sprintf("others may write in it (mode %04o)", perm.Perm())}
		case o != 0 && o != uid:
			return &UnsafeError{cur, fmt.Sprintf("a folder on the way belongs to uid %d", o)}
		case perm&0o002 != 0 && perm&fs.ModeSticky == 0:
			return &UnsafeError{cur, fmt.Sprintf("anyone may rename what is in it (mode %04o, not sticky)", perm.Perm())}
		}
	}
	return nil
}

// ClosedDir is PrivateDir for a folder nobody else may even read or enter (a socket's, the
// screens a restore paints): a folder of the user's that others may read is narrowed to 0700.
func ClosedDir(dir string) error {
	if err := PrivateDir(dir); err != nil {
		return err
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("folder %s: %w", dir, err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("close folder %s to others: %w", dir, err)
		}
	}
	return nil
}

func owner(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}

// OpenFile opens path without following a symbolic link in its last part (which O_NOFOLLOW
// refuses with ELOOP), so a link planted where taw's file goes is never written through.
//
// The file is opened with a plain system call: os.OpenFile would offer a regular file to the
// network poller, which refuses it, at the cost of five system calls.
func OpenFile(path string, flag int, perm fs.FileMode) (*os.File, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, flag|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if err != syscall.EINTR {
			break
		}
	}
	switch {
	case err == syscall.ELOOP:
		return nil, &UnsafeError{path, "it is a symbolic link"}
	case err != nil:
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}
