//go:build linux

package tmux

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startServer starts a real tmux server of the test's own and returns a client of it and the
// server's pid; the server is killed when the test ends.
func startServer(t *testing.T) (*Client, int) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is not installed: these tests need a real tmux server")
	}
	// A folder of its own, not t.TempDir, whose long name a socket's path may not hold.
	dir, err := os.MkdirTemp("", "tp")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	name := fmt.Sprintf("taw-progress-%d", time.Now().UnixNano()%1e9)
	env := []string{"TMUX_TMPDIR=" + dir}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX_TMPDIR=") {
			env = append(env, kv)
		}
	}
	start := exec.Command("tmux", "-L", name, "-f", "/dev/null", "new-session", "-d", "-s", "p")
	start.Env = env
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("start tmux: %v: %s", err, out)
	}
	c := &Client{Global: []string{"-L", name}, Env: env}
	t.Cleanup(func() { _, _ = c.Run(context.Background(), Cmd{"kill-server"}) })
	out, err := c.Output(context.Background(), "display-message", "-p", "#{pid}")
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(out)
	return c, pid
}

// manyWindows is one call that keeps the server busy: n windows, each a process it starts.
func manyWindows(n int) []Cmd {
	cmds := make([]Cmd, n)
	for i := range cmds {
		cmds[i] = Cmd{"new-window", "-d", "-t", "p", "sleep 1000"}
	}
	return cmds
}

// A call that a slow server takes longer than its patience to answer still succeeds, as long as
// the server keeps working: here the server runs a fifth of the time (stopped and continued by
// the test), and the call takes several times its patience.
func TestACallWaitsWhileTheServerWorks(t *testing.T) {
	c, pid := startServer(t)
	// The call's time with the server running freely sets the patience: a third of it, so the
	// throttled call (five times as long) takes fifteen patiences.
	t0 := time.Now()
	if _, err := c.Run(context.Background(), manyWindows(60)...); err != nil {
		t.Fatal(err)
	}
	patience := time.Since(t0) / 3
	if patience < 100*time.Millisecond {
		patience = 100 * time.Millisecond
	}
	stop := make(chan struct{})
	throttled := make(chan struct{})
	go func() {
		defer close(throttled)
		defer syscall.Kill(pid, syscall.SIGCONT)
		run := patience / 10
		for {
			select {
			case <-stop:
				return
			default:
			}
			syscall.Kill(pid, syscall.SIGSTOP)
			time.Sleep(4 * run)
			syscall.Kill(pid, syscall.SIGCONT)
			time.Sleep(run)
		}
	}()
	slow := *c
	slow.Timeout = patience
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t1 := time.Now()
	_, err := slow.Run(ctx, manyWindows(60)...)
	took := time.Since(t1)
	close(stop)
	<-throttled
	if err != nil {
		t.Fatalf("the call failed after %s (patience %s): %v", took, patience, err)
	}
	if n, _ := c.Output(context.Background(), "display-message", "-p", "#{session_windows}"); n != "121" {
		t.Errorf("the server has %s windows, want 121", n)
	}
	t.Logf("the call took %s with a patience of %s", took, patience)
}

// A server that makes no progress at all (stopped) still ends the call within about its
// patience, though the caller's deadline is far.
func TestACallGivesUpOnAStoppedServer(t *testing.T) {
	c, pid := startServer(t)
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(pid, syscall.SIGCONT)
	slow := *c
	slow.Timeout = 300 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	t0 := time.Now()
	_, err := slow.Run(ctx, Cmd{"list-panes"})
	took := time.Since(t0)
	var te *Error
	if err == nil || !asError(err, &te) || te.Code != CodeTmuxError || !strings.Contains(te.Stderr, "made no progress for 300ms") {
		t.Fatalf("err = %v, want no progress for 300ms", err)
	}
	if took > 10*time.Second {
		t.Errorf("gave up after %s", took)
	}
}

func asError(err error, te **Error) bool {
	e, ok := err.(*Error)
	*te = e
	return ok
}
