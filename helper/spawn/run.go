package spawn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/taw-tmux/taw/helper/xdg"
)

// Job is one command of the user's.
type Job struct {
	Label   string // what the log calls it: "hook blocked %3", "plugin notes action greet"
	Argv    []string
	Env     []string // the whole environment (see Env)
	Dir     string   // "" is the supervisor's own
	Timeout time.Duration
	Log     string // the log file; "" logs nothing
}

// SuperviseVerb is the hidden taw verb that runs one job detached (see Start): taw plugin
// supervise --label L --timeout D --log P --dir D -- argv...
var SuperviseVerb = []string{"plugin", "supervise"}

// Start runs the job detached from the caller: bin (the taw binary) is started in a session of
// its own as the job's supervisor, with the job's environment, and the caller does not wait for
// it. A long-lived caller reaps it in the background.
func Start(bin string, j Job) error {
	if len(j.Argv) == 0 {
		return errors.New("no command to run")
	}
	args := append(append([]string{}, SuperviseVerb...),
		"--label", j.Label, "--timeout", j.Timeout.String(), "--log", j.Log, "--dir", j.Dir, "--")
	args = append(args, j.Argv...)
	cmd := exec.Command(bin, args...)
	cmd.Env = j.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}

// Result is how a supervised job ended.
type Result struct {
	Exit     int  // the exit status; -1 when it did not start or was killed
	TimedOut bool // killed at its time limit
	Err      error
	Took     time.Duration
}

// killGrace is how long a job killed at its time limit has between SIGTERM and SIGKILL.
const killGrace = 2 * time.Second

// outputTail is how much of a failed job's output the log keeps.
const outputTail = 400

// Supervise runs the job in the foreground, in a process group of its own so a time limit kills
// everything it started. Its output goes to out (and its tail to the log when it fails); a
// failure, a time-out or a command that cannot start is logged.
func Supervise(ctx context.Context, j Job, stdin io.Reader, stdout, stderr io.Writer) Result {
	start := time.Now()
	if len(j.Argv) == 0 {
		r := Result{Exit: -1, Err: errors.New("no command to run")}
		logResult(j, r, nil)
		return r
	}
	cmd := exec.Command(j.Argv[0], j.Argv[1:]...)
	cmd.Env = j.Env
	cmd.Dir = j.Dir
	cmd.Stdin = stdin
	tail := &tailBuffer{max: outputTail}
	cmd.Stdout = io.MultiWriter(orDiscard(stdout), tail)
	cmd.Stderr = io.MultiWriter(orDiscard(stderr), tail)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		r := Result{Exit: -1, Err: fmt.Errorf("cannot start %s: %w", j.Argv[0], unwrapExec(err))}
		logResult(j, r, nil)
		return r
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var limit <-chan time.Time
	if j.Timeout > 0 {
		t := time.NewTimer(j.Timeout)
		defer t.Stop()
		limit = t.C
	}
	var err error
	timedOut := false
	select {
	case err = <-done:
	case <-limit:
		timedOut = true
		err = kill(cmd, done)
	case <-ctx.Done():
		err = kill(cmd, done)
	}
	r := Result{Exit: exitCode(err), TimedOut: timedOut, Took: time.Since(start)}
	switch {
	case timedOut:
		r.Exit = -1
		r.Err = fmt.Errorf("timed out after %s: killed", j.Timeout)
	case ctx.Err() != nil:
		r.Exit = -1
		r.Err = fmt.Errorf("stopped: %w", ctx.Err())
	case err != nil:
		r.Err = err
	}
	if r.Err != nil {
		logResult(j, r, tail.Bytes())
	}
	return r
}

func kill(cmd *exec.Cmd, done chan error) error {
	pgid := cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case err := <-done:
		return err
	case <-time.After(killGrace):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		return <-done
	}
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

func unwrapExec(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) Bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]byte(nil), t.buf...)
}

// LogPath is where failures of the user's commands are logged: $XDG_STATE_HOME/taw/hooks.log,
// else ~/.local/state/taw/hooks.log.
func LogPath(getenv func(string) string) string {
	return filepath.Join(xdg.StateHome(getenv), "taw", "hooks.log")
}

// maxLogBytes is the log's size before it is moved to hooks.log.1 and started afresh.
const maxLogBytes = 1 << 20

var logMu sync.Mutex

// Logf appends one line to the log; errors are ignored, a log must never stop taw.
func Logf(path, format string, args ...any) {
	if path == "" {
		return
	}
	logMu.Lock()
	defer logMu.Unlock()
	_ = os.MkdirAll(filepath.Dir(path), 0o755)
	if st, err := os.Stat(path); err == nil && st.Size() > maxLogBytes {
		_ = os.Rename(path, path+".1")
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	line := time.Now().UTC().Format(time.RFC3339) + " " + fmt.Sprintf(format, args...)
	_, _ = f.WriteString(strings.ReplaceAll(line, "\n", " ") + "\n")
}

func logResult(j Job, r Result, output []byte) {
	msg := fmt.Sprintf("%s: %s: %v", j.Label, quoteArgv(j.Argv), r.Err)
	if out := bytes.TrimSpace(output); len(out) > 0 {
		msg += ": output: " + string(out)
	}
	Logf(j.Log, "%s", msg)
}

func quoteArgv(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = strconv.Quote(a)
	}
	return "[" + strings.Join(q, " ") + "]"
}
