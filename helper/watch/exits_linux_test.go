//go:build linux

package watch

import (
	"context"
	"os/exec"
	"syscall"
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

// The look that names an agent can come just before it ends: a process gone by the time its
// watch would begin is told as ended at once, and is not watched again while it is on record.
func TestWatchExitsTellsAnEndBeforeTheWatch(t *testing.T) {
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	w := New(Config{})
	defer w.stopExits()
	w.memo["%1"] = &paneMemo{agent: "codex", probed: true, front: procinfo.Mark{PID: gone.Process.Pid}}
	wake := make(chan struct{}, 1)
	w.watchExits(wake)
	select {
	case <-wake:
	case <-time.After(10 * time.Second):
		t.Fatal("the agent had ended and the watcher was not woken")
	}
	if ended := w.takeEnded(); !w.memo["%1"].ended(ended) {
		t.Errorf("ended %v: the agent's end is not told to its pane's next probe", ended)
	}
	w.watchExits(wake)
	select {
	case <-wake:
		t.Error("woken again for the same end")
	case <-time.After(3 * exitSettle):
	}
}

// Under "bash -c 'claude; …; exec bash'" the agent's end can come to a look before the wrapper
// goes on: the wrapper, alone in front, still reads as claude's launcher, and its exec changes
// nothing in its stat file. The group is read again, wrapperRecheck apart, until it has gone on.
func TestAWrapperLeftAloneIsReadAgainUntilItGoesOn(t *testing.T) {
	c, id := paneServerWith(t, "sleep", `exec bash -c 'claude 600; read -t 1.5 x; exec bash --norc -i'`, "bash")
	w := newTestWatcher(t, c)
	defer w.stopExits()
	ctx := context.Background()
	looksUntil(t, w, id, "claude is never named with its own process", func(m *paneMemo) bool { return m.agent == "claude" && len(m.members) == 1 })
	agentPID := w.memo[id].members[0]
	wake := make(chan struct{}, 1)
	w.watchExits(wake)
	if err := syscall.Kill(agentPID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case <-wake:
	case <-time.After(10 * time.Second):
		t.Fatal("claude ended and the watcher was not woken")
	}
	if _, _, err := w.Look(ctx); err != nil {
		t.Fatal(err)
	}
	m := w.memo[id]
	if m.agent != "claude" {
		t.Fatalf("the look after the end, while the wrapper waits: memo %+v; want claude named by its launcher", m)
	}
	if next := w.NextLook(time.Now()); next > wrapperRecheck {
		t.Errorf("the next look comes in %s; want it within %s", next, wrapperRecheck)
	}
	// The looks Run would make: the wrapper goes on (exec keeps its pid and name) and claude is
	// let go.
	looksUntil(t, w, id, "the wrapper went on and claude is still named", func(m *paneMemo) bool { return m.agent == "" })
}

// An agent that is its own group's leader, whose last child ends, is no wrapper: its pane's group
// is not read again and again.
func TestAnAgentLeftAloneIsNoWrapper(t *testing.T) {
	// A copy of bash named claude, by the kernel too: an agent that runs a command.
	c, id := paneServerWith(t, "bash", "exec claude -c 'sleep 600; read -t 20 x'", "claude")
	w := newTestWatcher(t, c)
	defer w.stopExits()
	ctx := context.Background()
	looksUntil(t, w, id, "claude and its command never seen", func(m *paneMemo) bool { return m.agent == "claude" && len(m.members) == 1 })
	wake := make(chan struct{}, 1)
	w.watchExits(wake)
	if err := syscall.Kill(w.memo[id].members[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case <-wake:
	case <-time.After(10 * time.Second):
		t.Fatal("claude's command ended and the watcher was not woken")
	}
	if _, _, err := w.Look(ctx); err != nil {
		t.Fatal(err)
	}
	if m := w.memo[id]; m.agent != "claude" || len(m.members) != 0 || m.awaitsWrapper(time.Now()) {
		t.Errorf("claude alone after its command: memo %+v; want claude named and no wrapper awaited", m)
	}
}
