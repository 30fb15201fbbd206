package tests

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// startTmux starts a tmux server of its own for a Go test: -f /dev/null, one session "s" of the
// size given, its socket in socketDir, which the test's TMUX_TMPDIR names (and TMUX is empty,
// so nothing reaches an outer server). It returns the server's -L name and how to kill it, for
// the test to defer before socketDir goes.
func startTmux(t *testing.T, tag, socketDir string, width, height int) (string, func()) {
	name := fmt.Sprintf("taw-%s-%d", tag, os.Getpid())
	t.Setenv("TMUX", "")
	t.Setenv("TMUX_TMPDIR", socketDir)
	start := exec.Command("tmux", "-L", name, "-f", "/dev/null", "new-session", "-d", "-s", "s", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height))
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("start tmux: %v: %s", err, out)
	}
	return name, func() { _ = exec.Command("tmux", "-L", name, "kill-server").Run() }
}
