package procinfo

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Owner returns the real and effective user ids a process runs as, from its status file.
func Owner(pid int) (real, effective int, err error) {
	b, err := os.ReadFile(fmt.Sprintf("%s/%d/status", procRoot, pid))
	if err != nil {
		return -1, -1, err
	}
	return parseUids(string(b), pid)
}

// parseUids reads the "Uid:" line of a status file: real, effective, saved and filesystem ids.
func parseUids(status string, pid int) (real, effective int, err error) {
	for _, line := range strings.Split(status, "\n") {
		rest, ok := strings.CutPrefix(line, "Uid:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) < 2 {
			break
		}
		r, err1 := strconv.Atoi(f[0])
		e, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil {
			break
		}
		return r, e, nil
	}
	return -1, -1, fmt.Errorf("process %d: no user ids in its status", pid)
}

// Cwd is the folder process pid works in.
func Cwd(pid int) (string, error) { return os.Readlink(fmt.Sprintf("%s/%d/cwd", procRoot, pid)) }
