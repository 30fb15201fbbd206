package watch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/taw-tmux/taw/helper/filelock"
	"github.com/taw-tmux/taw/helper/tmuxconf"
)

// One watcher per server: the server's watcher holds a write lock on a pid file in the server's
// lock folder for as long as it runs. The kernel drops the lock when the process ends, however it
// ends, so a crashed watcher never blocks the next one. On Linux the lock is an open file
// description lock, which anyone can ask about without taking it, so asking never races with a
// watcher starting.

// PidOption is the server option where the running watcher publishes its process id.
const PidOption = tmuxconf.WatcherPidOption

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

// RestartEnv is set, for a watcher the plugin's supervisor started again, to "<pid> <status>"
// of the watcher before it, so the new one can say so.
const RestartEnv = "TAW_WATCHER_RESTART"

// maxRestarts is how many times in a row the supervisor starts a watcher that keeps dying
// within a minute, before it gives up (and clears the dead one's pid from the server option).
const maxRestarts = 5

// SuperviseScript is the /bin/sh script the plugin runs its watcher under: it starts the
// watcher, and when the watcher dies (killed, or crashed: any status but 0, which is a stop on
// purpose or another watcher already there) starts it again a second later with RestartEnv set,
// at most maxRestarts times in a row for watchers that die within a minute. On giving up it
// takes the dead watcher's pid off the server option, so nothing reads a stale one. serve is
// the watcher's command, quoted for sh; tmuxCmd is tmux's, with the server's flags.
func SuperviseScript(serve, tmuxCmd string) string {
	return fmt.Sprintf(`n=0
while :; do
  start=$(date +%%s)
  %[1]s >/dev/null 2>&1 &
  pid=$!
  wait $pid
  s=$?
  [ $s -eq 0 ] && exit 0
  [ $(( $(date +%%s) - start )) -gt 60 ] && n=0
  n=$((n+1))
  if [ $n -gt %[3]d ]; then
    [ "$(%[2]s show-options -sqv %[4]s)" = "$pid" ] && %[2]s set-option -squ %[4]s
    exit 0
  fi
  sleep 1
  %[5]s="$pid $s"
  export %[5]s
done`, serve, tmuxCmd, maxRestarts, PidOption, RestartEnv)
}
