//go:build !linux

package procinfo

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// Owner returns the real and effective user ids a process runs as, from ps.
func Owner(pid int) (real, effective int, err error) {
	out, err := exec.Command("ps", "-o", "ruid=", "-o", "uid=", "-p", strconv.Itoa(pid)).Output()
	if err != nil {
		return -1, -1, fmt.Errorf("ps for process %d: %w", pid, err)
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return -1, -1, fmt.Errorf("ps for process %d: no user ids", pid)
	}
	r, err1 := strconv.Atoi(f[0])
	e, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil {
		return -1, -1, fmt.Errorf("ps for process %d: bad user ids %q", pid, strings.TrimSpace(string(out)))
	}
	return r, e, nil
}

// Cwd is the folder process pid works in; this system has no /proc to read it from.
func Cwd(pid int) (string, error) {
	return "", fmt.Errorf("the folder of process %d cannot be read on this system", pid)
}
