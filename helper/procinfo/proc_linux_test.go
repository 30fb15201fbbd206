//go:build linux

package procinfo

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/taw-tmux/taw/tests/testrun"
)

// These tests run a real interactive shell on a pseudo-terminal, as a tmux pane does, type a
// command into it and read what /proc says is in front.

// openPTY opens a pseudo-terminal pair without any library.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	unlock := 0
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatalf("unlock pty: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatalf("pty number: %v", e)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open pty slave: %v", err)
	}
	return m, s
}

// startPane starts an interactive bash on a fresh terminal and returns its pid and a way to type.
func startPane(t *testing.T, env ...string) (pid int, typeLine func(string)) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	master, slave := openPTY(t)
	cmd := exec.Command(bash, "--norc", "--noprofile", "-i")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "PS1=$ ", "TERM=dumb"}, env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start bash: %v", err)
	}
	slave.Close()
	go func() { _, _ = io.Copy(io.Discard, master) }()
	t.Cleanup(func() {
		if _, tpgid, err := ShellInFront(cmd.Process.Pid); err == nil && tpgid > 0 && tpgid != cmd.Process.Pid {
			_ = syscall.Kill(-tpgid, syscall.SIGKILL)
		}
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		master.Close()
	})
	waitFor(t, "the shell to own its terminal", func() bool {
		in, _, err := ShellInFront(cmd.Process.Pid)
		return err == nil && in
	})
	return cmd.Process.Pid, func(line string) {
		if _, err := master.WriteString(line + "\n"); err != nil {
			t.Fatalf("type %q: %v", line, err)
		}
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testrun.Eventually(t, what, 10*time.Second, cond)
}

func TestForegroundShellAtPrompt(t *testing.T) {
	pid, _ := startPane(t)
	leader, group, in, err := Foreground(pid)
	if err != nil {
		t.Fatal(err)
	}
	if !in || leader.PID != pid || leader.Comm != "bash" || len(group) != 1 {
		t.Errorf("at the prompt: in=%v leader=%+v group=%d, want the shell alone", in, leader, len(group))
	}
}

func TestForegroundJob(t *testing.T) {
	pid, typeLine := startPane(t)
	// sh -c with a second command keeps sh alive beside its child, so the group has two members.
	typeLine("TAW_AGENT=codex sh -c 'sleep 30; :'")
	waitFor(t, "the job to take the terminal", func() bool {
		_, group, in, err := Foreground(pid)
		return err == nil && !in && len(group) == 2
	})
	leader, group, _, err := Foreground(pid)
	if err != nil {
		t.Fatal(err)
	}
	if leader.Comm != "sh" || leader.PID != leader.PGID || leader.PPID != pid {
		t.Errorf("leader = %+v, want sh leading its own group under the shell", leader)
	}
	if got := strings.Join(leader.Argv, " "); got != "sh -c sleep 30; :" {
		t.Errorf("leader argv = %q", got)
	}
	if leader.Env["TAW_AGENT"] != "codex" || len(leader.Env) != 1 {
		t.Errorf("leader env = %v, want only TAW_AGENT=codex", leader.Env)
	}
	if group[1].Comm != "sleep" || group[1].PPID != leader.PID || group[1].PGID != leader.PID {
		t.Errorf("member = %+v, want sleep below sh", group[1])
	}
	in, tpgid, err := ShellInFront(pid)
	if err != nil || in || tpgid != leader.PID {
		t.Errorf("ShellInFront = %v, %d, %v; want false, %d", in, tpgid, err, leader.PID)
	}
}

func TestForegroundNodeLauncher(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node")
	}
	dir := filepath.Join(t.TempDir(), "lib", "node_modules", "@anthropic-ai", "claude-code")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "cli.js")
	if err := os.WriteFile(script, []byte("setInterval(() => {}, 1000);\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pid, typeLine := startPane(t)
	typeLine(node + " " + script)
	waitFor(t, "node to take the terminal", func() bool {
		leader, _, in, err := Foreground(pid)
		return err == nil && !in && len(leader.Argv) == 2
	})
	leader, _, _, err := Foreground(pid)
	if err != nil {
		t.Fatal(err)
	}
	if leader.Comm != "node" || leader.Argv[1] != script || leader.Env != nil {
		t.Errorf("leader = %+v, want node running %s with no hints", leader, script)
	}
}

func TestForegroundGone(t *testing.T) {
	if _, _, _, err := Foreground(1 << 30); err == nil {
		t.Error("no such process: want an error")
	}
	if _, _, err := ShellInFront(1 << 30); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("no such process: err = %v, want not exist", err)
	}
}

func BenchmarkShellInFront(b *testing.B) {
	pid := os.Getpid()
	for i := 0; i < b.N; i++ {
		_, _, _ = ShellInFront(pid)
	}
}

// exec keeps the pid: the mark tells it by the new name; the group and the start time stay.
func TestMarkSeesExec(t *testing.T) {
	pid, typeLine := startPane(t)
	before, err := ReadMark(pid)
	if err != nil {
		t.Fatal(err)
	}
	if before.TPGID != pid || before.PGID != pid || before.Comm != "bash" || before.Start == 0 {
		t.Fatalf("mark at the prompt = %+v, want bash in front with a start time", before)
	}
	typeLine("exec sleep 30")
	waitFor(t, "the shell to exec sleep", func() bool {
		m, err := ReadMark(pid)
		return err == nil && m.Comm == "sleep"
	})
	after, _ := ReadMark(pid)
	if after.PID != pid || after.Start != before.Start || after.TPGID != pid || after == before {
		t.Errorf("after exec: %+v, before: %+v; want the same pid and start, another name", after, before)
	}
}

// A program started through a symlink (node_modules/.bin/x) has its real path as Exe.
func TestForegroundExeThroughSymlink(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	root := t.TempDir()
	pkg := filepath.Join(root, "node_modules", "@github", "copilot-linux-x64")
	bin := filepath.Join(root, "node_modules", ".bin")
	for _, d := range []string{pkg, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "copilot"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../@github/copilot-linux-x64/copilot", filepath.Join(bin, "copilot-linux-x64")); err != nil {
		t.Fatal(err)
	}
	pid, typeLine := startPane(t)
	typeLine(filepath.Join(bin, "copilot-linux-x64") + " 30")
	waitFor(t, "the program to take the terminal", func() bool {
		leader, _, in, err := Foreground(pid)
		return err == nil && !in && len(leader.Argv) == 2
	})
	leader, _, _, _ := Foreground(pid)
	if want := filepath.Join(pkg, "copilot"); leader.Exe != want || leader.Start == 0 {
		t.Errorf("leader = %+v, want exe %s and a start time", leader, want)
	}
}

// The watcher reads one mark per pane per look where it read ShellInFront before: the two cost
// the same read.
func BenchmarkReadMark(b *testing.B) {
	pid := os.Getpid()
	for i := 0; i < b.N; i++ {
		_, _ = ReadMark(pid)
	}
}

func TestCwdIsTheProcesssFolder(t *testing.T) {
	want, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	got, err := Cwd(os.Getpid())
	if err != nil || got != want {
		t.Fatalf("Cwd(self) = %q, %v; want %q", got, err, want)
	}
	if _, err := Cwd(1 << 30); err == nil {
		t.Fatal("Cwd of a process that does not exist gave no error")
	}
}
