//go:build linux

package procinfo

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
