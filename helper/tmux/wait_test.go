package tmux

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// testServer starts a tmux server of the test's own (an isolated socket, no config).
func testServer(t *testing.T) *Client {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is not installed: install it (apt-get install tmux) to run these tests")
	}
	sock := fmt.Sprintf("taw-wait-%d-%d", os.Getpid(), time.Now().UnixNano())
	c := &Client{Global: []string{"-L", sock}}
	if out, err := exec.Command("tmux", "-L", sock, "-f", "/dev/null", "new-session", "-d", "-s", "main").CombinedOutput(); err != nil {
		t.Fatalf("start tmux: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", sock, "kill-server").Run() })
	return c
}

func signal(t *testing.T, c *Client, channel string) {
	t.Helper()
	if _, err := c.Run(context.Background(), SignalCmds(channel)...); err != nil {
		t.Fatal(err)
	}
}

// woken waits (bounded) for one wake-up; an hour's poll means only the generation check at the
// start of a wait can deliver it, so a lost signal shows as no wake-up at all.
func woken(t *testing.T, c *Client, channel string, before func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	before()
	wake := make(chan struct{}, 1)
	go c.WaitLoop(ctx, channel, wake, time.Hour)
	select {
	case <-wake:
	case <-time.After(20 * time.Second):
		t.Fatal("the waiter was never woken: the signal was lost")
	}
}

// tmux 3.3a counts two signals sent while no one waits as none; the waiter still wakes.
func TestWaitLoopSurvivesTwoSignalsWithNoWaiter(t *testing.T) {
	c := testServer(t)
	woken(t, c, "taw-test", func() {
		signal(t, c, "taw-test")
		signal(t, c, "taw-test")
		if plainWaitEnds(t, c, "taw-test") {
			t.Log("this tmux keeps a second signal: the quirk is not there")
		}
	})
}

// A killed wait-for client stays registered and takes the next signal; the waiter still wakes.
func TestWaitLoopSurvivesAKilledWaiter(t *testing.T) {
	c := testServer(t)
	woken(t, c, "taw-test", func() {
		for attempt := 0; attempt < 20; attempt++ {
			dead := exec.Command("tmux", append(c.Global, "wait-for", "taw-test")...)
			if err := dead.Start(); err != nil {
				t.Fatal(err)
			}
			connected(t, dead.Process.Pid)
			_ = dead.Process.Signal(syscall.SIGKILL)
			_ = dead.Wait()
			signal(t, c, "taw-test")
			if !plainWaitEnds(t, c, "taw-test") {
				return // the dead waiter took the signal: the quirk is reproduced
			}
		}
		t.Log("the killed waiter never took a signal here")
	})
}

// plainWaitEnds says whether a plain `tmux wait-for` returns at once: whether tmux kept the
// signal. It is only a diagnosis of tmux; a blocked one is killed after a moment.
func plainWaitEnds(t *testing.T, c *Client, channel string) bool {
	t.Helper()
	plain := exec.Command("tmux", append(c.Global, "wait-for", channel)...)
	if err := plain.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- plain.Wait() }()
	select {
	case <-done:
		return true
	case <-time.After(300 * time.Millisecond):
		_ = plain.Process.Kill()
		<-done
		return false
	}
}

// connected waits (bounded) until the tmux client pid holds a socket and sleeps: it has
// connected and sent its command.
func connected(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
		sockets := 0
		for _, fd := range fds {
			if l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name())); err == nil && strings.HasPrefix(l, "socket:") {
				sockets++
			}
		}
		if sockets > 0 && strings.Contains(string(stat), ") S ") {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Each wake-up the loop passes on follows a signal: with none sent, a started waiter stays quiet
// (the channel was never signalled, so there is no generation to catch up on).
func TestWaitLoopQuietWithoutSignals(t *testing.T) {
	c := testServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	wake := make(chan struct{}, 1)
	go c.WaitLoop(ctx, "taw-quiet", wake, 50*time.Millisecond)
	deadline := time.Now().Add(500 * time.Millisecond)
	for time.Now().Before(deadline) {
		select {
		case <-wake:
			t.Fatal("woken with no signal sent")
		case <-time.After(50 * time.Millisecond):
		}
	}
	signal(t, c, "taw-quiet")
	select {
	case <-wake:
	case <-time.After(20 * time.Second):
		t.Fatal("not woken by a signal")
	}
}
