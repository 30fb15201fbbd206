//go:build linux

package procinfo

import (
	"errors"
	"fmt"
)

// maxAncestors bounds the walk up from a process to the one that holds a terminal.
const maxAncestors = 64

// ErrNoAncestorTerminal: neither the process nor any process above it holds a terminal.
var ErrNoAncestorTerminal = errors.New("no terminal is held by the process or its parents")

// TerminalOf is the terminal a process runs on: the device number of its controlling terminal,
// or, for a process without one (a hook an agent started detached), of the nearest parent that
// has one. holder is the process whose terminal it is.
func TerminalOf(pid int) (tty uint64, holder int, err error) {
	for i := 0; i < maxAncestors && pid > 1; i++ {
		st, err := readStat(pid)
		if err != nil {
			return 0, 0, err
		}
		if st.tty != 0 {
			return st.tty, st.pid, nil
		}
		pid = st.ppid
	}
	return 0, 0, fmt.Errorf("process %d: %w", pid, ErrNoAncestorTerminal)
}
