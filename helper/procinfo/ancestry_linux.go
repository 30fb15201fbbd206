//go:build linux

package procinfo

import (
	"os"
	"strconv"
)

// maxParents bounds the walk up the process tree.
const maxParents = 64

// DescendsFrom says whether pid is ancestor or one of its descendants, walking up from pid
// through the parent of each process.
func DescendsFrom(pid, ancestor int) bool {
	for i := 0; i < maxParents && pid > 1; i++ {
		if pid == ancestor {
			return true
		}
		st, err := readStat(pid)
		if err != nil {
			return false
		}
		pid = st.ppid
	}
	return pid == ancestor && ancestor > 1
}

// AncestorWhere is the first of pid and its ancestors whose argv matches, walking up through the
// parent of each process; 0 when none does.
func AncestorWhere(pid int, match func(argv []string) bool) int {
	for i := 0; i < maxParents && pid > 1; i++ {
		if b, err := os.ReadFile(procRoot + "/" + strconv.Itoa(pid) + "/cmdline"); err == nil && match(parseCmdline(b)) {
			return pid
		}
		st, err := readStat(pid)
		if err != nil {
			return 0
		}
		pid = st.ppid
	}
	return 0
}
