package watch

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/detect"
	"github.com/taw-tmux/taw/helper/tmux"
)

// A hundred agents that start at once are named by the looks that find them in a few tmux calls,
// not two a pane: their writes go guarded, many panes to a call.
func TestManyAgentsAreNamedInFewCalls(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("needs tmux (apt-get install tmux)")
	}
	dir := t.TempDir()
	agent := filepath.Join(dir, "claude")
	// The script's shell runs under the script's name, kept alive by a loop.
	if err := os.WriteFile(agent, []byte("#!/bin/sh\nwhile :; do sleep 1000; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("taw-batch-%d-%d", os.Getpid(), time.Now().UnixNano())
	env := append(os.Environ(), "TMUX_TMPDIR="+t.TempDir())
	start := exec.Command("tmux", "-L", name, "-f", "/dev/null", "new-session", "-d", "-s", "b", "-x", "200", "-y", "50")
	start.Env = env
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("start tmux: %v: %s", err, out)
	}
	c := &tmux.Client{Global: []string{"-L", name}, Env: env, Timeout: time.Minute}
	ctx := context.Background()
	t.Cleanup(func() { _, _ = c.Run(ctx, tmux.Cmd{"kill-server"}) })
	const n = 100
	var cmds []tmux.Cmd
	for i := 0; i < n; i++ {
		cmds = append(cmds, tmux.Cmd{"new-window", "-d", "-t", "b:", agent})
	}
	if _, err := c.Run(ctx, cmds...); err != nil {
		t.Fatal(err)
	}
	rules, _ := detect.Load(func(string) string { return "" })
	w := New(Config{Client: c, LockDir: t.TempDir(), Rules: rules})
	defer w.Close()
	named, writes, calls := 0, 0, 0
	deadline := time.Now().Add(2 * time.Minute)
	for named < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d agents named after 2 minutes", named, n)
		}
		look, st, err := w.Look(ctx)
		if err != nil {
			t.Fatal(err)
		}
		writes += st.Writes
		calls += st.TmuxCalls
		named = 0
		for _, p := range look.Panes {
			if p.Agent() == "claude" {
				named++
			}
		}
	}
	if writes < n {
		t.Fatalf("%d writes for %d agents", writes, n)
	}
	// One write a pane alone was a read and a write: two calls each.
	if calls > n/2 {
		t.Errorf("naming %d agents took %d tmux calls (%d writes), want at most %d", n, calls, writes, n/2)
	}
	t.Logf("named %d agents with %d writes in %d tmux calls", n, writes, calls)
}
