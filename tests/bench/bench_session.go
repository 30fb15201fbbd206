package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// taw session save and restore of 50 panes (5 sessions of 2 windows of 5 panes, 10 of them with
// an agent), beside the bare tmux calls that read and create as much.
func init() {
	register("session", func(e *Env) ([]Result, error) {
		s, err := e.Server("session")
		if err != nil {
			return nil, err
		}
		// Plain sh panes: the prompt wait measured is taw's, not a login shell's profile.
		if _, err := e.Tmux(s, "set-option", "-g", "default-command", "exec /bin/sh"); err != nil {
			return nil, err
		}
		names := []string{"s1", "s2", "s3", "s4", "s5"}
		if _, err := e.Tmux(s, createCmds(names)...); err != nil {
			return nil, fmt.Errorf("create panes: %v", err)
		}
		panes, err := e.Tmux(s, "list-panes", "-a", "-f", "#{!=:#{session_name},bench}", "-F", "#{pane_id}")
		if err != nil {
			return nil, err
		}
		ids := strings.Fields(panes)
		if len(ids) != 50 {
			return nil, fmt.Errorf("made %d panes, want 50", len(ids))
		}
		for i, id := range ids[:10] {
			out, err := e.Run(nil, e.Taw, "-L", s, "pane", "report-agent", id, "--source", "bench", "--agent", "bench",
				"--state", "idle", "--agent-session-id", fmt.Sprint("S", i), "--", "true", "--resume", fmt.Sprint("S", i))
			if err != nil {
				return nil, fmt.Errorf("report-agent: %v: %s", err, out)
			}
		}

		const n = 20
		bare, err := Median(n, func() error { _, err := e.Tmux(s, "list-panes", "-a"); return err })
		if err != nil {
			return nil, err
		}
		save, err := Median(n, func() error {
			out, err := e.Run(nil, e.Taw, "-L", s, "session", "save", "--name", "bench")
			if err != nil {
				return fmt.Errorf("save: %v: %s", err, out)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}

		kill := func() error {
			var args []string
			for i, name := range names {
				if i > 0 {
					args = append(args, ";")
				}
				args = append(args, "kill-session", "-t", name)
			}
			_, err := e.Tmux(s, args...)
			return err
		}
		const m = 8
		rawCreate, err := timedAfter(m, kill, func() error { _, err := e.Tmux(s, createCmds(names)...); return err })
		if err != nil {
			return nil, err
		}
		restore := func() error {
			out, err := e.Run(nil, e.Taw, "-L", s, "session", "restore", "--name", "bench")
			if err != nil {
				return fmt.Errorf("restore: %v: %s", err, out)
			}
			return nil
		}
		typed, err := timedAfter(m, kill, restore)
		if err != nil {
			return nil, err
		}
		// The same restore with resuming off: creating the panes alone.
		conf := filepath.Join(e.TmpDir, "config", "taw", "config.toml")
		if err := os.MkdirAll(filepath.Dir(conf), 0o700); err != nil {
			return nil, err
		}
		if err := os.WriteFile(conf, []byte("[session]\nresume_agents_on_restore = false\n"), 0o600); err != nil {
			return nil, err
		}
		defer os.Remove(conf)
		plain, err := timedAfter(m, kill, restore)
		if err != nil {
			return nil, err
		}
		return []Result{
			{What: "taw session save, 50 panes (end to end)", Value: Ms(save), Unit: "ms", Baseline: "tmux list-panes -a", BaseVal: Ms(bare), Goal: "under 200 ms"},
			{What: "taw session restore, 50 panes, resume off", Value: Ms(plain), Unit: "ms", Baseline: "raw tmux: create the 50 panes", BaseVal: Ms(rawCreate), Goal: "fast"},
			{What: "taw session restore, 50 panes, 10 commands typed", Value: Ms(typed), Unit: "ms", Baseline: "raw tmux: create the 50 panes", BaseVal: Ms(rawCreate), Goal: "includes the wait for 10 prompts"},
		}, nil
	})
}

// createCmds is one tmux call making the sessions: 2 windows of 5 panes each.
func createCmds(names []string) []string {
	var args []string
	add := func(cmd ...string) {
		if len(args) > 0 {
			args = append(args, ";")
		}
		args = append(args, cmd...)
	}
	for _, name := range names {
		add("new-session", "-d", "-s", name, "-x", "200", "-y", "50")
		add("new-window", "-d", "-t", name+":1")
		for _, w := range []string{":0", ":1"} {
			for i := 0; i < 4; i++ {
				add("split-window", "-d", "-t", name+w)
				add("select-layout", "-t", name+w, "tiled")
			}
		}
	}
	return args
}

// timedAfter runs setup then f, n times, and returns the median time of f alone.
func timedAfter(n int, setup, f func() error) (time.Duration, error) {
	ds := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		if err := setup(); err != nil {
			return 0, err
		}
		t := time.Now()
		if err := f(); err != nil {
			return 0, err
		}
		ds = append(ds, time.Since(t))
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2], nil
}
