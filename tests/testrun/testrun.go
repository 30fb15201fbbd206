// Package testrun keeps what a test binary leaves on the machine in one place: every tmux server
// it starts (through TMUX_TMPDIR) and every temporary folder (through TMPDIR) live under one run
// folder, and a watchdog process ends those servers and removes the folder when the binary ends,
// however it ends: a pass, a failure, a panic or a kill. It also says what a test does when the
// machine lacks a program it needs.
package testrun

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// watchEnv, set in the watchdog's environment, names the run folder it guards; rootEnv, in the
// environment of the tests and all they start, names the run folder made already.
const (
	watchEnv = "TAW_TESTRUN_WATCH"
	rootEnv  = "TAW_TESTRUN_ROOT"
)

// Begin is the first line of a TestMain, after a binary that doubles as other programs (a relay)
// has checked for those: it makes the run folder, points TMPDIR and TMUX_TMPDIR at it and starts
// the watchdog. The watchdog reads its standard input until this process ends, however it ends,
// and then cleans up. end closes that input and waits for the cleanup; a TestMain that exits
// through testscript.Main never calls it, and the watchdog cleans up all the same. In the
// watchdog itself, and in a copy of the binary run by testscript as one of its programs, Begin
// does nothing else.
func Begin() (end func()) {
	if root := os.Getenv(watchEnv); root != "" {
		watch(root)
		os.Exit(0)
	}
	if os.Getenv(rootEnv) != "" || !strings.HasSuffix(os.Args[0], ".test") {
		return func() {}
	}
	end, err := start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testrun:", err)
		os.Exit(1)
	}
	return end
}

// Run is a whole TestMain for a binary that is nothing else: os.Exit(testrun.Run(m)).
func Run(m *testing.M) int {
	end := Begin()
	code := m.Run()
	end()
	return code
}

// start makes the run folder and starts the watchdog. The folder's name is short, since a tmux
// socket's path may hold at most 107 bytes.
func start() (func(), error) {
	root, err := os.MkdirTemp("/tmp", "tawrun")
	if err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	dog := exec.Command(exe)
	dog.Env = append(os.Environ(), watchEnv+"="+root)
	dog.Stdin = r
	dog.Stderr = os.Stderr
	// A group of its own: an interrupt typed at the terminal ends the tests, not their cleanup.
	dog.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := dog.Start(); err != nil {
		return nil, fmt.Errorf("start the cleanup watchdog: %w", err)
	}
	r.Close()
	// The pipe's end stays reachable for the life of the process: were it collected, its
	// finalizer would close it and the watchdog would clean up under the running tests.
	held = w
	os.Setenv(rootEnv, root)
	os.Setenv("TMPDIR", root)
	os.Setenv("TMUX_TMPDIR", root)
	return func() {
		w.Close()
		_ = dog.Wait()
	}, nil
}

// held is the watchdog's pipe, open until the process ends or end closes it.
var held *os.File

// watch waits for the test binary to end, then ends every tmux server under root, every process
// still working in it, and removes it.
func watch(root string) {
	_, _ = io.Copy(io.Discard, os.Stdin)
	Sweep(root)
}

// Sweep ends the tmux servers whose sockets are under root and the processes whose working
// folder is under it, then removes root.
func Sweep(root string) {
	root = filepath.Clean(root)
	_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && d.Type()&os.ModeSocket != 0 && strings.HasPrefix(filepath.Base(filepath.Dir(path)), "tmux-") {
			kill := exec.Command("tmux", "-S", path, "kill-server")
			kill.Env = append(os.Environ(), "TMUX=")
			_ = runBounded(kill, 5*time.Second)
		}
		return nil
	})
	self := os.Getpid()
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == self {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", p.Name(), "cwd"))
		if err == nil && (cwd == root || strings.HasPrefix(cwd, root+"/")) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	// A process killed a moment ago may still be writing (a shell's history): try a few times.
	for i := 0; i < 20; i++ {
		if err := os.RemoveAll(root); err == nil || errors.Is(err, os.ErrNotExist) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	fmt.Fprintln(os.Stderr, "testrun: could not remove", root)
}

func runBounded(cmd *exec.Cmd, limit time.Duration) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		_ = cmd.Process.Kill()
		return <-done
	}
}

// InCI says the tests run under CI, which installs every program they need, so a missing one
// is a failure there rather than a skip.
func InCI() bool { return os.Getenv("CI") == "true" }

// Program is the path of prog, which the test needs. When the machine lacks it the test skips
// with one line naming the Debian package that has it, or fails under CI.
func Program(t testing.TB, prog, pkg string) string {
	t.Helper()
	path, err := exec.LookPath(prog)
	if err == nil {
		return path
	}
	if InCI() {
		t.Fatalf("%s is not installed; CI must install it (apt-get install %s)", prog, pkg)
	}
	t.Skipf("%s is not installed: apt-get install %s to run this test", prog, pkg)
	return ""
}

// Missing names the first of progs (each "program:package") the machine lacks, as the line a
// skip prints, or "" when it has them all.
func Missing(progs ...string) string {
	for _, p := range progs {
		prog, pkg, ok := strings.Cut(p, ":")
		if !ok {
			pkg = prog
		}
		if _, err := exec.LookPath(prog); err != nil {
			return fmt.Sprintf("%s is not installed: apt-get install %s to run this test", prog, pkg)
		}
	}
	return ""
}

// Eventually waits until cond holds, looking every 20 ms, and fails the test when it still does
// not after limit.
func Eventually(t testing.TB, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
