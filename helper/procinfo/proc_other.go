//go:build !linux

package procinfo

import (
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
)

// Without /proc, ps answers. It costs a fork per call, so the watcher should call ShellInFront
// only for panes that had an agent; argv comes back split on spaces, which is enough to name an
// agent but loses quoting.

// ShellInFront reports whether the pane's own process (normally its shell) holds the pane's
// terminal, and the terminal's foreground process group.
func ShellInFront(panePID int) (bool, int, error) {
	out, err := exec.Command("ps", "-o", "tpgid=", "-p", strconv.Itoa(panePID)).Output()
	if err != nil {
		return false, 0, fmt.Errorf("ps for process %d: %w", panePID, err)
	}
	tpgid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return false, 0, fmt.Errorf("ps for process %d: bad tpgid %q", panePID, strings.TrimSpace(string(out)))
	}
	if tpgid <= 0 {
		return false, tpgid, fmt.Errorf("pane process %d: %w", panePID, ErrNoTerminal)
	}
	return tpgid == panePID, tpgid, nil
}

// ReadMark reads a process's group, its terminal's foreground group and its program with ps, the
// program named as Foreground names it (from args). Its start time stays 0: ps prints it only to
// the second.
func ReadMark(pid int) (Mark, error) {
	out, err := exec.Command("ps", "-o", "pgid=", "-o", "tpgid=", "-o", "args=", "-p", strconv.Itoa(pid)).Output()
	if err != nil {
		return Mark{}, fmt.Errorf("ps for process %d: %w", pid, err)
	}
	f := strings.Fields(string(out))
	if len(f) < 3 {
		return Mark{}, fmt.Errorf("ps for process %d: %q", pid, strings.TrimSpace(string(out)))
	}
	pgid, err1 := strconv.Atoi(f[0])
	tpgid, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil {
		return Mark{}, fmt.Errorf("ps for process %d: %q", pid, strings.TrimSpace(string(out)))
	}
	return Mark{PID: pid, PGID: pgid, TPGID: tpgid, Comm: baseName(f[2])}, nil
}

// Foreground returns the process group in front of the pane whose first process is panePID, its
// leader first, and whether that group is the pane process's own.
func Foreground(panePID int) (leader Proc, group []Proc, shellInFront bool, err error) {
	in, tpgid, err := ShellInFront(panePID)
	if err != nil {
		return Proc{}, nil, false, err
	}
	out, err := exec.Command("ps", "-A", "-o", "pid=", "-o", "ppid=", "-o", "pgid=", "-o", "tpgid=", "-o", "args=").Output()
	if err != nil {
		return Proc{}, nil, in, fmt.Errorf("ps: %w", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		var n [4]int
		ok := true
		for i := range n {
			if n[i], err = strconv.Atoi(f[i]); err != nil {
				ok = false
			}
		}
		if !ok || n[2] != tpgid {
			continue
		}
		p := Proc{PID: n[0], PPID: n[1], PGID: n[2], TPGID: n[3], Argv: f[4:]}
		p.Comm = baseName(f[4])
		p.Env = psEnv(p.PID)
		if p.PID == tpgid {
			group = append([]Proc{p}, group...)
		} else {
			group = append(group, p)
		}
	}
	if len(group) == 0 {
		return Proc{}, nil, in, fmt.Errorf("pane process %d: no process left in foreground group %d", panePID, tpgid)
	}
	return group[0], group, in, nil
}

// psEnv reads the agent hints where ps can show a process's environment (BSD ps -E).
func psEnv(pid int) map[string]string {
	if runtime.GOOS != "darwin" && runtime.GOOS != "freebsd" {
		return nil
	}
	out, err := exec.Command("ps", "-E", "-ww", "-o", "command=", "-p", strconv.Itoa(pid)).Output()
	if err != nil {
		return nil
	}
	return parseEnviron([]byte(strings.Join(strings.Fields(string(out)), "\x00")))
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// ErrNoAncestorTerminal: neither the process nor any process above it holds a terminal.
var ErrNoAncestorTerminal = errors.New("no terminal is held by the process or its parents")

// TerminalOf needs /proc: elsewhere no process's terminal is known.
func TerminalOf(pid int) (tty uint64, holder int, err error) {
	return 0, 0, fmt.Errorf("process %d: %w", pid, ErrNoAncestorTerminal)
}
