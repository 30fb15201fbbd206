//go:build linux

package procinfo

import "syscall"

// maxKeptFiles bounds the stat files one MarkReader keeps open, far below the limit of open
// files; the processes past it are read by path.
const maxKeptFiles = 512

// MarkReader reads marks as ReadMark does, through stat files it keeps open between calls: the
// watcher reads the same processes at every look, and a kept file costs one read where a path
// costs an open, a read and a close. A kept file belongs to its process, not to its number: once
// that process is gone the file reads nothing, and the number is read by path again. Sweep
// closes the files of processes not read since the last Sweep, Close all of them. The zero value
// is ready; a MarkReader is for one goroutine.
type MarkReader struct {
	files map[int]*keptFile
}

type keptFile struct {
	fd   int
	read bool // since the last Sweep
}

// Read is ReadMark(pid).
func (r *MarkReader) Read(pid int) (Mark, error) {
	if f, ok := r.files[pid]; ok {
		if st, err := readStatFile(f.fd, pid); err == nil {
			f.read = true
			return markOfStat(st), nil
		}
		r.drop(pid)
	}
	if len(r.files) >= maxKeptFiles {
		return ReadMark(pid)
	}
	fd, err := openStat(pid)
	if err != nil {
		return Mark{}, err
	}
	st, err := readStatFile(fd, pid)
	if err != nil {
		syscall.Close(fd)
		return Mark{}, err
	}
	if r.files == nil {
		r.files = map[int]*keptFile{}
	}
	r.files[pid] = &keptFile{fd: fd, read: true}
	return markOfStat(st), nil
}

// Sweep closes the files of the processes not read since the last Sweep.
func (r *MarkReader) Sweep() {
	for pid, f := range r.files {
		if !f.read {
			r.drop(pid)
			continue
		}
		f.read = false
	}
}

// Close closes every kept file.
func (r *MarkReader) Close() {
	for pid := range r.files {
		r.drop(pid)
	}
}

func (r *MarkReader) drop(pid int) {
	syscall.Close(r.files[pid].fd)
	delete(r.files, pid)
}
