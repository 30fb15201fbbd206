package watch

import (
	"github.com/taw-tmux/taw/helper/filelock"

	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// One watcher per server: the server's watcher holds a write lock on a pid file in the server's
// lock folder for as long as it runs. The kernel drops the lock when the process ends, however it
// ends, so a crashed watcher never blocks the next one. On Linux the lock is an open file
// description lock, which anyone can ask about without taking it, so asking never races with a
// watcher starting.

// PidOption is the server option where the running watcher publishes its process id.
const PidOption = "@agent-wizard-watcher-pid"

// PidPath is the watcher's pid file in a server's lock folder.
func PidPath(lockDir string) string { return filepath.Join(lockDir, "watcher.pid") }

// LogPath is the running watcher's log in a server's lock folder.
func LogPath(lockDir string) string { return filepath.Join(lockDir, "watcher.log") }

// OpenLog starts the running watcher's log afresh, in the checked lock folder and never through
// a symbolic link.
func OpenLog(lockDir string) (*os.File, error) {
	if err := filelock.PrivateDir(lockDir); err != nil {
		return nil, err
	}
	return filelock.OpenFile(LogPath(lockDir), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
}

// ErrRunning is returned by Claim when another watcher holds the server.
var ErrRunning = errors.New("a watcher is already running for this server")

// Claim makes this process the server's watcher: it takes the pid file's lock without waiting
// and writes pid into it. release gives it up. ErrRunning means another process holds it.
func Claim(lockDir string, pid int) (release func(), err error) {
	if err := filelock.PrivateDir(lockDir); err != nil {
		return nil, fmt.Errorf("claim the watcher: %w", err)
	}
	f, err := filelock.OpenFile(PidPath(lockDir), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("claim the watcher: %w", err)
	}
	held, err := tryLock(f)
	if err != nil || !held {
		f.Close()
		if err == nil {
			return nil, ErrRunning
		}
		return nil, fmt.Errorf("claim the watcher: %w", err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(pid)+"\n"), 0)
	}
	return func() {
		_ = f.Truncate(0)
		f.Close() // closing drops the lock
	}, nil
}

// Running returns the pid of the server's running watcher, 0 when none runs, or -1 when one
// runs whose pid is not written yet.
func Running(lockDir string) int {
	f, err := filelock.OpenFile(PidPath(lockDir), os.O_RDONLY, 0)
	if err != nil {
		return 0
	}
	defer f.Close()
	if !lockedByOther(f) {
		return 0
	}
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	if err != nil || pid <= 0 {
		return -1
	}
	return pid
}
