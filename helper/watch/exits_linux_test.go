//go:build linux

package watch

import (
	"os/exec"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/procinfo"
)

// An agent's process is watched while the last look names an agent in its pane: its end wakes
// the watcher, and a pane that shows no agent any more has its watch stopped.
func TestWatchExitsWakesWhenTheAgentEnds(t *testing.T) {
	agent := exec.Command("sleep", "60")
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	defer agent.Process.Kill()
	other := exec.Command("sleep", "60")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer other.Process.Kill()

	w := New(Config{})
	defer w.stopExits()
	w.memo["%1"] = &paneMemo{agent: "claude", probed: true, front: procinfo.Mark{PID: agent.Process.Pid}}
	w.memo["%2"] = &paneMemo{agent: "", probed: true, front: procinfo.Mark{PID: other.Process.Pid}}
	wake := make(chan struct{}, 1)
	w.watchExits(wake)
	if _, ok := w.exits[agent.Process.Pid]; !ok || len(w.exits) != 1 {
		t.Fatalf("watches: %v; want the agent's process only", w.exits)
	}
	select {
	case <-wake:
		t.Fatal("woken while the agent runs")
	default:
	}

	agent.Process.Kill()
	select {
	case <-wake:
	case <-time.After(10 * time.Second):
		t.Fatal("the agent ended and the watcher was not woken")
	}
	agent.Wait()

	if ended := w.takeEnded(); !ended[agent.Process.Pid] || !w.memo["%1"].ended(ended) {
		t.Errorf("ended %v: the agent's end is not told to its pane's next probe", ended)
	}

	w.memo["%1"].agent = ""
	w.watchExits(wake)
	if len(w.exits) != 0 {
		t.Errorf("a pane with no agent is still watched: %v", w.exits)
	}
}

// Under a wrapper ("sh -c 'agent; exec sh'") the agent is a member of the group the wrapper
// leads: its end wakes the watcher too, and the pane's group is read again.
func TestWatchExitsWatchesTheGroupsMembers(t *testing.T) {
	wrapper := exec.Command("sleep", "60")
	member := exec.Command("sleep", "60")
	for _, c := range []*exec.Cmd{wrapper, member} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		defer c.Process.Kill()
	}
	w := New(Config{})
	defer w.stopExits()
	m := &paneMemo{agent: "cline", probed: true, front: procinfo.Mark{PID: wrapper.Process.Pid}, members: []int{member.Process.Pid}}
	w.memo["%1"] = m
	wake := make(chan struct{}, 1)
	w.watchExits(wake)
	if len(w.exits) != 2 {
		t.Fatalf("watches: %v; want the wrapper and the agent", w.exits)
	}
	member.Process.Kill()
	select {
	case <-wake:
	case <-time.After(10 * time.Second):
		t.Fatal("the agent under the wrapper ended and the watcher was not woken")
	}
	member.Wait()
	if !m.ended(w.takeEnded()) {
		t.Errorf("the member's end is not told to its pane's next probe")
	}
}
