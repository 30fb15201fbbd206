//go:build !linux

package tmux

// Elsewhere a call's patience is all it waits: there is no portable way to see the server work.
func serverPID(fd int) int { return 0 }

func serverWork(pid int) (ran int64, runnable, ok bool) { return 0, false, false }
