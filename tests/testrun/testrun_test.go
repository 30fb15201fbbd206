package testrun

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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

// TestMain runs these tests under a run folder and its watchdog, leaving Begin's end unused, as
// a TestMain that ends through testscript.Main does.
func TestMain(m *testing.M) {
	Begin()
	os.Exit(m.Run())
}

// The run folder and its servers outlast garbage collections: the watchdog's pipe, were it
// collected, would close and set the cleanup going under the running tests.
func TestRunFolderOutlivesCollection(t *testing.T) {
	root := os.Getenv(rootEnv)
	if root == "" {
		t.Fatal("Begin made no run folder")
	}
	start := exec.Command("tmux", "-L", "kept", "-f", "/dev/null", "new-session", "-d")
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("start tmux: %v: %s", err, out)
	}
	defer exec.Command("tmux", "-L", "kept", "kill-server").Run()
	// Finalizers run one after another: once this one has run, so has any the collection
	// queued before it, a dropped pipe's among them.
	finalized := make(chan struct{})
	marker := new([64]byte)
	runtime.SetFinalizer(marker, func(*[64]byte) { close(finalized) })
	marker = nil
	runtime.GC()
	runtime.GC()
	select {
	case <-finalized:
	case <-time.After(10 * time.Second):
		t.Fatal("no finalizer ran within 10s")
	}
	// A watchdog set going cleans up within milliseconds: watch for it for a second.
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(root); err != nil {
			t.Fatalf("the run folder went while the tests run: %v", err)
		}
		if err := exec.Command("tmux", "-L", "kept", "list-sessions").Run(); err != nil {
			t.Fatalf("the server under the run folder ended while the tests run: %v", err)
		}
	}
}
