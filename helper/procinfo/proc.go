package procinfo

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Proc is one process as taw sees it.
type Proc struct {
	PID, PPID, PGID int
	TPGID           int // the foreground process group of the process's terminal, -1 for none
	Comm            string
	Argv            []string
	Env             map[string]string // only the agent hints (HintVars); nil when none or unreadable
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
	// After ") ": state ppid pgrp session tty_nr tpgid ...
	f := strings.Fields(string(b[closing+1:]))
	if len(f) < 6 {
		return stat{}, fmt.Errorf("parse stat: %d fields after comm, want at least 6", len(f))
	}
	var n [4]int
	for i, idx := range []int{1, 2, 5, 4} {
		if n[i], err = strconv.Atoi(f[idx]); err != nil {
			return stat{}, fmt.Errorf("parse stat: field %d: %q is not a number", idx+3, f[idx])
		}
	}
	return stat{pid: pid, ppid: n[0], pgid: n[1], tpgid: n[2], tty: uint64(uint32(n[3])), comm: string(b[open+1 : closing])}, nil
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
