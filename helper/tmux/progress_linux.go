package tmux

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// serverPID is the pid of the process at the other end of the connected socket fd.
func serverPID(fd int) int {
	cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil || int(cred.Pid) == os.Getpid() {
		return 0 // nothing to watch (a test's stand-in in this process is no tmux)
	}
	return int(cred.Pid)
}

// serverWork is how far the process has got: its time on a CPU in nanoseconds (schedstat), and
// whether it is waiting for one (runnable: a busy machine, not a stuck server). ok false: the
// process is gone or cannot be read.
func serverWork(pid int) (ran int64, runnable, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/schedstat")
	if err != nil {
		return 0, false, false
	}
	f := bytes.Fields(b)
	if len(f) == 0 {
		return 0, false, false
	}
	ran, err = strconv.ParseInt(string(f[0]), 10, 64)
	if err != nil {
		return 0, false, false
	}
	st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false, false
	}
	if i := bytes.LastIndexByte(st, ')'); i >= 0 && i+2 < len(st) {
		runnable = st[i+2] == 'R'
	}
	return ran, runnable, true
}
