package procinfo

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// Proc is one process as taw sees it.
type Proc struct {
	PID, PPID, PGID int
	TPGID           int // the foreground process group of the process's terminal, -1 for none
	Comm            string
	Argv            []string
	Env             map[string]string // only the agent hints (HintVars); nil when none or unreadable
	// Exe is the executable's real path (through symlinks such as node_modules/.bin), "" when
	// unreadable: a native binary inside an npm package is named by the package it sits in.
	Exe string
	// Start is the process's start time in clock ticks after boot: with the pid, it tells a
	// process from a later one that got the same pid.
	Start uint64
}

// Mark is what one stat file says of the process in front of a pane: enough to see, at a cost of
// one read, that the foreground group changed or that its leader ran another program (exec keeps
// the pid and changes the name) or ended and its pid was taken again (a new start time).
type Mark struct {
	PID, PGID, TPGID int
	Comm             string
	Start            uint64
}

// MarkOf is the mark of a process read with Foreground.
func MarkOf(p Proc) Mark {
	return Mark{PID: p.PID, PGID: p.PGID, TPGID: p.TPGID, Comm: p.Comm, Start: p.Start}
}

// HintVars are the environment variables kept in Proc.Env: a wrapper or sandbox names the agent
// it runs with one of them (TAW_AGENT first; HERDR_AGENT so wrappers written for herdr work too).
var HintVars = []string{"TAW_AGENT", "HERDR_AGENT"}

// ErrNoTerminal is returned for a pane process that has no controlling terminal (tpgid -1), so
// nothing is in front of it.
var ErrNoTerminal = errors.New("process has no controlling terminal")

// stat is what taw needs from /proc/<pid>/stat.
type stat struct {
	pid, ppid, pgid, tpgid int
	tty                    uint64 // the controlling terminal's device number, 0 for none
	comm                   string
	start                  uint64
}

// parseStat reads a /proc/<pid>/stat line. comm is taken between the first "(" and the last ")"
// because a program may put spaces and parentheses in its own name.
func parseStat(b []byte) (stat, error) {
	open := bytes.IndexByte(b, '(')
	closing := bytes.LastIndexByte(b, ')')
	if open < 0 || closing < open {
		return stat{}, fmt.Errorf("parse stat: no (comm) in %q", truncate(b))
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:open])))
	if err != nil {
		return stat{}, fmt.Errorf("parse stat: bad pid in %q", truncate(b))
	}
	// After ") ": state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt
	// utime stime cutime cstime priority nice num_threads itrealvalue starttime ... The fields
	// are walked in place: the watcher parses one of these per pane per look.
	st := stat{pid: pid, comm: string(b[open+1 : closing])}
	rest := b[closing+1:]
	n := 0
	for n <= 19 {
		for len(rest) > 0 && (rest[0] == ' ' || rest[0] == '\n') {
			rest = rest[1:]
		}
		if len(rest) == 0 {
			break
		}
		end := bytes.IndexAny(rest, " \n")
		if end < 0 {
			end = len(rest)
		}
		field := rest[:end]
		rest = rest[end:]
		switch n {
		case 1, 2, 4, 5:
			v, err := strconv.Atoi(string(field))
			if err != nil {
				return stat{}, fmt.Errorf("parse stat: field %d: %q is not a number", n+3, string(field))
			}
			switch n {
			case 1:
				st.ppid = v
			case 2:
				st.pgid = v
			case 4:
				st.tty = uint64(uint32(v))
			default:
				st.tpgid = v
			}
		case 19:
			st.start, _ = strconv.ParseUint(string(field), 10, 64) // a start time of 0 only weakens the mark
		}
		n++
	}
	if n < 6 {
		return stat{}, fmt.Errorf("parse stat: %d fields after comm, want at least 6", n)
	}
	return st, nil
}

// parseCmdline splits /proc/<pid>/cmdline (NUL-separated, NUL-terminated) into argv. A process
// that rewrote its title with spaces and no NULs comes back as one word, which is what it wrote.
func parseCmdline(b []byte) []string {
	b = bytes.TrimRight(b, "\x00")
	if len(b) == 0 {
		return nil
	}
	parts := bytes.Split(b, []byte{0})
	argv := make([]string, len(parts))
	for i, p := range parts {
		argv[i] = string(p)
	}
	return argv
}

// parseEnviron keeps only the HintVars from a NUL-separated environment block.
func parseEnviron(b []byte) map[string]string {
	var env map[string]string
	for len(b) > 0 {
		var kv []byte
		if i := bytes.IndexByte(b, 0); i >= 0 {
			kv, b = b[:i], b[i+1:]
		} else {
			kv, b = b, nil
		}
		for _, name := range HintVars {
			if len(kv) > len(name) && kv[len(name)] == '=' && string(kv[:len(name)]) == name {
				if env == nil {
					env = map[string]string{}
				}
				env[name] = string(kv[len(name)+1:])
			}
		}
	}
	return env
}

func truncate(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "…"
	}
	return string(b)
}
