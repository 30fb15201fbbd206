package testrun

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// Sweep ends a tmux server whose socket is under the run folder and a process working in it,
// and removes the folder.
func TestSweepEndsServersAndProcesses(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is not installed: this test needs a real tmux server")
	}
	root, err := os.MkdirTemp("", "tawrun-sweep")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(root)
	env := append(os.Environ(), "TMUX_TMPDIR="+root, "TMUX=")
	start := exec.Command("tmux", "-L", "swept", "-f", "/dev/null", "new-session", "-d")
	start.Env = env
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("start tmux: %v: %s", err, out)
	}
	work := filepath.Join(root, "work")
	if err := os.Mkdir(work, 0o700); err != nil {
		t.Fatal(err)
	}
	sleeper := exec.Command("sleep", "600")
	sleeper.Dir = work
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	go func() { _ = sleeper.Wait(); close(ended) }()

	Sweep(root)

	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		_ = sleeper.Process.Kill()
		t.Error("the process working in the run folder was not ended")
	}
	probe := exec.Command("tmux", "-L", "swept", "list-sessions")
	probe.Env = env
	if err := probe.Run(); err == nil {
		_ = exec.Command("tmux", "-L", "swept", "kill-server").Run()
		t.Error("the tmux server under the run folder still answers")
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Errorf("the run folder is still there: %v", err)
	}
}

// The watchdog's pipe stays open through garbage collections: a collected pipe would close and
// set the watchdog cleaning up under the running tests.
func TestHeldPipeOutlivesCollection(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	saved := held
	held = w
	defer func() { held = saved; w.Close() }()
	runtime.GC()
	runtime.GC()
	if err := syscall.SetNonblock(int(r.Fd()), true); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1)
	if _, err := syscall.Read(int(r.Fd()), buf); err != syscall.EAGAIN {
		t.Errorf("reading the pipe gave %v, want EAGAIN: its writer was closed", err)
	}
}
