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
	if _, ok := w.exits["%1"]; !ok || len(w.exits) != 1 {
		t.Fatalf("watches: %v; want the agent's pane only", w.exits)
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

	w.memo["%1"].agent = ""
	w.watchExits(wake)
	if len(w.exits) != 0 {
		t.Errorf("a pane with no agent is still watched: %v", w.exits)
	}
}
