//go:build linux

package procinfo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// procRoot is where /proc is mounted.
const procRoot = "/proc"

// maxWalk bounds how many descendants one Foreground call visits, so a fork bomb in a pane
// cannot make the watcher's look unbounded.
const maxWalk = 4096

// ShellInFront reports whether the pane's own process (normally its shell) holds the pane's
// terminal, that is whether the shell is back at its prompt, and the terminal's foreground process
// group. It reads one stat file: the watcher calls it for every pane every look.
func ShellInFront(panePID int) (bool, int, error) {
	st, err := readStat(panePID)
	if err != nil {
		return false, 0, err
	}
	if st.tpgid <= 0 {
		return false, st.tpgid, fmt.Errorf("pane process %d: %w", panePID, ErrNoTerminal)
	}
	return st.tpgid == panePID, st.tpgid, nil
}

// ReadMark reads the mark of one process: one stat file. The watcher reads the mark of the
// leader it last found in front of each pane at every look.
func ReadMark(pid int) (Mark, error) {
	st, err := readStat(pid)
	if err != nil {
		return Mark{}, err
	}
	return markOfStat(st), nil
}

func markOfStat(st stat) Mark {
	return Mark{PID: st.pid, PGID: st.pgid, TPGID: st.tpgid, Comm: st.comm, Start: st.start}
}

// Foreground returns the process group in front of the pane whose first process is panePID:
// its leader, every member found among the pane's descendants (the leader first), and whether
// that group is the pane process's own (shellInFront). When the pane runs a program directly
// rather than a shell, that program is the leader and shellInFront is true.
func Foreground(panePID int) (leader Proc, group []Proc, shellInFront bool, err error) {
	st, err := readStat(panePID)
	if err != nil {
		return Proc{}, nil, false, err
	}
	if st.tpgid <= 0 {
		return Proc{}, nil, false, fmt.Errorf("pane process %d: %w", panePID, ErrNoTerminal)
	}
	tpgid := st.tpgid
	shellInFront = tpgid == panePID

	stats, err := descendants(st)
	if errors.Is(err, fs.ErrNotExist) {
		// Kernels built without CONFIG_PROC_CHILDREN have no children files: fall back to
		// scanning /proc, which costs more but only on such kernels.
		stats, err = scanGroup(tpgid)
	}
	if err != nil {
		return Proc{}, nil, shellInFront, err
	}
	for _, s := range stats {
		if s.pgid != tpgid {
			continue
		}
		p := readProc(s)
		if s.pid == tpgid {
			group = append([]Proc{p}, group...)
		} else {
			group = append(group, p)
		}
	}
	if len(group) == 0 || group[0].PID != tpgid {
		// The leader is not below the pane (it left the group, or re-parented); read it directly
		// if it is still there and still leads the group.
		if s, err := readStat(tpgid); err == nil && s.pgid == tpgid {
			group = append([]Proc{readProc(s)}, group...)
		}
	}
	if len(group) == 0 {
		return Proc{}, nil, shellInFront, fmt.Errorf("pane process %d: no process left in foreground group %d", panePID, tpgid)
	}
	return group[0], group, shellInFront, nil
}

// descendants walks the process tree below root (root included) through the children files, in
// breadth-first order. Members of the foreground group get all their threads' children read,
// since a multi-threaded agent may start processes from any thread; other processes only their
// main thread's, which is where shells fork.
func descendants(root stat) ([]stat, error) {
	out := []stat{root}
	for i := 0; i < len(out) && len(out) < maxWalk; i++ {
		kids, err := children(out[i].pid, out[i].pgid == root.tpgid)
		if err != nil {
			if i == 0 {
				return nil, err
			}
			continue // that process ended while we walked
		}
		for _, pid := range kids {
			if s, err := readStat(pid); err == nil {
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// children lists the child pids of pid from /proc/<pid>/task/<tid>/children.
func children(pid int, allThreads bool) ([]int, error) {
	tids := []string{strconv.Itoa(pid)}
	if allThreads {
		if ents, err := os.ReadDir(fmt.Sprintf("%s/%d/task", procRoot, pid)); err == nil && len(ents) > 1 {
			tids = tids[:0]
			for _, e := range ents {
				tids = append(tids, e.Name())
			}
		}
	}
	var kids []int
	for _, tid := range tids {
		b, err := os.ReadFile(fmt.Sprintf("%s/%d/task/%s/children", procRoot, pid, tid))
		if err != nil {
			if len(tids) == 1 {
				return nil, err
			}
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				kids = append(kids, n)
			}
		}
	}
	return kids, nil
}

// scanGroup finds the members of process group pgid by reading every /proc/<pid>/stat.
func scanGroup(pgid int) ([]stat, error) {
	ents, err := os.ReadDir(procRoot)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", procRoot, err)
	}
	var out []stat
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if s, err := readStat(pid); err == nil && s.pgid == pgid {
			out = append(out, s)
		}
	}
	return out, nil
}

// readStat reads /proc/<pid>/stat with one read into a buffer on the stack (os.ReadFile would
// add a stat(2) and a read that finds the end): it runs once per pane per look.
func readStat(pid int) (stat, error) {
	// Plain system calls, not an *os.File: no poller registration, finalizer or allocation.
	fd, err := openStat(pid)
	if err != nil {
		return stat{}, err
	}
	defer syscall.Close(fd)
	return readStatFile(fd, pid)
}

func statPath(pid int) string { return procRoot + "/" + strconv.Itoa(pid) + "/stat" }

func openStat(pid int) (int, error) {
	path := statPath(pid)
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return -1, fmt.Errorf("read process %d: %w", pid, &fs.PathError{Op: "open", Path: path, Err: err})
		}
		return fd, nil
	}
}

// readStatFile reads an open stat file from its start: the kernel writes the line afresh at
// every read from offset 0, so a file kept open reads as a new one does.
func readStatFile(fd, pid int) (stat, error) {
	var buf [1024]byte
	b := buf[:0]
	for {
		n, err := syscall.Pread(fd, b[len(b):cap(b)], int64(len(b)))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return stat{}, fmt.Errorf("read process %d: %w", pid, &fs.PathError{Op: "read", Path: statPath(pid), Err: err})
		}
		b = b[:len(b)+n]
		if n == 0 || len(b) < cap(b) {
			break
		}
		b = slices.Grow(b, 1024) // a line longer than any kernel writes today: read the rest
	}
	return parseStat(b)
}

// readProc adds argv, the executable's path and the agent hints to a stat. Either may be unreadable (a process of
// another user hides its environment; a zombie has no cmdline): the Proc is still returned.
func readProc(s stat) Proc {
	p := Proc{PID: s.pid, PPID: s.ppid, PGID: s.pgid, TPGID: s.tpgid, Comm: s.comm, Start: s.start}
	if exe, err := os.Readlink(fmt.Sprintf("%s/%d/exe", procRoot, s.pid)); err == nil {
		p.Exe = strings.TrimSuffix(exe, " (deleted)")
	}
	if b, err := os.ReadFile(fmt.Sprintf("%s/%d/cmdline", procRoot, s.pid)); err == nil {
		p.Argv = parseCmdline(b)
	}
	if b, err := os.ReadFile(fmt.Sprintf("%s/%d/environ", procRoot, s.pid)); err == nil {
		p.Env = parseEnviron(b)
	}
	return p
}
