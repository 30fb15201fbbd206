package proctree

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"
)

func TestSessionOfParsesOddNames(t *testing.T) {
	stat := []byte("1234 (a) b (c)) S 1 1234 777 0 -1 4194560")
	if sid, ok := sessionOf(stat); !ok || sid != 777 {
		t.Errorf("sessionOf = %d, %v; want 777", sid, ok)
	}
	if _, _, ok := parentAndSession([]byte("9 (x) S 42 9 9")); !ok {
		t.Error("short stat did not parse")
	}
	if _, ok := sessionOf([]byte("garbage")); ok {
		t.Error("garbage parsed")
	}
}

// A session leader with a child that moved to its own process group: both must die.
func TestKillSessionEndsDetachedChildren(t *testing.T) {
	cmd := exec.Command("/bin/sh", "-c", "sh -c 'set -m; sleep 300 & wait' & sleep 300")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sid := cmd.Process.Pid
	deadline := time.Now().Add(5 * time.Second)
	for len(SessionMembers(sid)) < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("session %d has %v, want at least 3 processes", sid, SessionMembers(sid))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !KillTree(sid) {
		t.Fatal("KillTree signalled nothing")
	}
	_ = cmd.Wait()
	for len(SessionMembers(sid)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("still alive in session %d: %v", sid, SessionMembers(sid))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A child that started a session of its own is still found through its parent.
func TestTreeFollowsChildrenThatLeftTheSession(t *testing.T) {
	cmd := exec.Command("/bin/sh", "-c", "setsid sleep 300 & wait")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	root := cmd.Process.Pid
	deadline := time.Now().Add(5 * time.Second)
	for len(Tree(root)) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("tree of %d is %v", root, Tree(root))
		}
		time.Sleep(10 * time.Millisecond)
	}
	members := Tree(root)
	KillTree(root)
	_ = cmd.Wait()
	for _, pid := range members {
		for syscall.Kill(pid, 0) == nil && !zombie(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("%d survived", pid)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func zombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return err != nil || isZombie(stat)
}
