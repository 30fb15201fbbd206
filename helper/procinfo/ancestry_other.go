//go:build !linux

package procinfo

// DescendsFrom says whether pid is ancestor or one of its descendants. Without /proc only the
// process itself is known.
func DescendsFrom(pid, ancestor int) bool { return pid == ancestor && pid > 1 }

// AncestorWhere is the first of pid and its ancestors whose argv matches; without /proc none is
// known.
func AncestorWhere(pid int, match func(argv []string) bool) int { return 0 }
