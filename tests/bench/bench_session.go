package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// taw session save and restore of 50 panes (5 sessions of 2 windows of 5 panes, 10 of them with
// an agent), beside the bare tmux calls that read and create as much.
func init() {
	registerOnServer("session", func(e *Env, s string) ([]Result, error) {
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
			if err := e.ReportAgent(s, id, "idle", "--agent-session-id", fmt.Sprint("S", i), "--", "true", "--resume", fmt.Sprint("S", i)); err != nil {
				return nil, err
			}
		}

		const n = 20
		bare, err := Median(n, func() error { _, err := e.Tmux(s, "list-panes", "-a"); return err })
		if err != nil {
			return nil, err
		}
		save, err := Median(n, func() error {
			_, err := e.TawOn(s, "session", "save", "--name", "bench")
			return err
		})
		if err != nil {
			return nil, err
		}

		kill := func() error { return killSessions(e, s, names) }
		const m = 8
		rawCreate, err := timedAfter(m, kill, func() error { _, err := e.Tmux(s, createCmds(names)...); return err })
		if err != nil {
			return nil, err
		}
		restore := func() error {
			_, err := e.TawOn(s, "session", "restore", "--name", "bench")
			return err
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

// ResurrectEnv names the folder of a tmux-resurrect checkout to measure beside taw; the bench
// keeps no copy of it.
const ResurrectEnv = "TAW_BENCH_RESURRECT"

// taw session save and restore of 50 panes, each running a program (tail -f) under 2,000 lines
// of scrollback, with pane contents on; beside the same save without contents, and beside
// tmux-resurrect's save.sh and restore.sh with @resurrect-capture-pane-contents on, on the same
// server, when TAW_BENCH_RESURRECT names a checkout of it.
func init() {
	registerOnServer("session-contents", func(e *Env, s string) ([]Result, error) {
		if out, err := e.Tmux(s, "set-option", "-g", "default-command", "exec /bin/sh", ";", "set-option", "-g", "history-limit", "5000"); err != nil {
			return nil, fmt.Errorf("settings: %v: %s", err, out)
		}
		log := filepath.Join(e.TmpDir, "bench.log")
		if err := os.WriteFile(log, []byte("a log line\n"), 0o600); err != nil {
			return nil, err
		}
		names := []string{"c1", "c2", "c3", "c4", "c5"}
		fill := func() error {
			if _, err := e.Tmux(s, createCmds(names)...); err != nil {
				return fmt.Errorf("create panes: %v", err)
			}
			out, err := e.Tmux(s, "list-panes", "-a", "-f", "#{!=:#{session_name},bench}", "-F", "#{pane_id}")
			if err != nil {
				return err
			}
			var args []string
			for _, id := range strings.Fields(out) {
				if len(args) > 0 {
					args = append(args, ";")
				}
				args = append(args, "send-keys", "-t", id, "seq -f '%g: a line of scrollback with a few words on it' 1 2000; tail -f "+log, "Enter")
			}
			if out, err := e.Tmux(s, args...); err != nil {
				return fmt.Errorf("type: %v: %s", err, out)
			}
			return waitPanes(e, s, "tail", 50)
		}
		if err := fill(); err != nil {
			return nil, err
		}
		kill := func() error { return killSessions(e, s, names) }
		save := func(name string) func() error {
			return func() error {
				_, err := e.TawOn(s, "session", "save", "--name", name)
				return err
			}
		}
		const n = 10
		plainSave, err := Median(n, save("plain"))
		if err != nil {
			return nil, fmt.Errorf("step 2: %v", err)
		}
		if out, err := e.Tmux(s, "set-option", "-g", "@agent-wizard-save-pane-contents", "on"); err != nil {
			return nil, fmt.Errorf("contents on: %v: %s", err, out)
		}
		contentsSave, err := Median(n, save("contents"))
		if err != nil {
			return nil, fmt.Errorf("step 3: %v", err)
		}
		st, err := os.Stat(filepath.Join(e.TmpDir, "data", "taw", "sessions", "contents.json"))
		if err != nil {
			return nil, fmt.Errorf("step 4: %v", err)
		}
		restore := func() error {
			out, err := e.TawOn(s, "session", "restore", "--name", "contents", "--wait", "60s")
			if err != nil {
				return err
			}
			if !strings.Contains(out, "showed the saved contents of 50 panes") {
				return fmt.Errorf("restore did not show every pane's contents: %s", out)
			}
			return waitPanes(e, s, "tail", 50)
		}
		const m = 5
		tawRestore, err := timedAfter(m, kill, restore)
		if err != nil {
			return nil, fmt.Errorf("step 5: %v", err)
		}
		results := []Result{
			{What: "taw session save, 50 panes, programs, no contents", Value: Ms(plainSave), Unit: "ms", Goal: "fast"},
			{What: "taw session save, 50 panes × 2,000 lines, contents", Value: Ms(contentsSave), Unit: "ms", Baseline: "the same save without contents", BaseVal: Ms(plainSave), Goal: fmt.Sprintf("saves stay fast (file %.1f MB)", float64(st.Size())/1e6)},
		}
		dir := os.Getenv(ResurrectEnv)
		if dir == "" {
			fmt.Printf("%-58s skipped: set %s to a tmux-resurrect checkout to measure it beside taw\n", "tmux-resurrect save.sh/restore.sh", ResurrectEnv)
			results = append(results, Result{What: "taw session restore, 50 panes: programs + contents", Value: Ms(tawRestore), Unit: "ms", Goal: "until every program runs again"})
			return results, nil
		}
		rdir := filepath.Join(e.TmpDir, "resurrect")
		if _, err := e.Tmux(s, "set-option", "-g", "@resurrect-dir", rdir, ";", "set-option", "-g", "@resurrect-capture-pane-contents", "on"); err != nil {
			return nil, err
		}
		// The scripts run as a key binding runs them, inside the server: TMUX names it.
		tmuxVar, err := e.Tmux(s, "display-message", "-p", "#{socket_path},#{pid},0")
		if err != nil {
			return nil, fmt.Errorf("read socket: %v", err)
		}
		runScript := func(script string, args ...string) func() error {
			return func() error {
				out, err := e.Run([]string{"TMUX=" + tmuxVar}, "bash", append([]string{filepath.Join(dir, "scripts", script)}, args...)...)
				if err != nil {
					return fmt.Errorf("%s: %v: %s", script, err, out)
				}
				return nil
			}
		}
		resSave, err := Median(n, runScript("save.sh", "quiet"))
		if err != nil {
			return nil, fmt.Errorf("step 6: %v", err)
		}
		results = append(results,
			Result{What: "taw session save, 50 panes × 2,000 lines, contents ", Value: Ms(contentsSave), Unit: "ms", Baseline: "tmux-resurrect save.sh, contents on", BaseVal: Ms(resSave), Goal: "faster than resurrect"})
		resRestore, err := timedAfter(m, kill, func() error {
			if err := runScript("restore.sh")(); err != nil {
				return err
			}
			return waitPanes(e, s, "tail", 50)
		})
		if err != nil {
			// restore.sh can take the server down with it (tmux 3.3a exits while it recreates 50
			// panes): said, and taw's figure stands alone.
			fmt.Printf("%-58s failed: %.200s\n", "tmux-resurrect restore.sh, contents on", strings.ReplaceAll(err.Error(), "\n", " | "))
			return append(results, Result{What: "taw session restore, 50 panes: programs + contents", Value: Ms(tawRestore), Unit: "ms", Goal: "until every program runs again"}), nil
		}
		return append(results,
			Result{What: "taw session restore, 50 panes: programs + contents", Value: Ms(tawRestore), Unit: "ms", Baseline: "tmux-resurrect restore.sh, contents on", BaseVal: Ms(resRestore), Goal: "faster than resurrect"},
		), nil
	})
}

// waitPanes waits (at most a minute) until want panes outside the bench session run program.
func waitPanes(e *Env, s, program string, want int) error {
	var out string
	var err error
	if waitFor(time.Minute, 20*time.Millisecond, func() bool {
		out, err = e.Tmux(s, "list-panes", "-a", "-f", "#{!=:#{session_name},bench}", "-F", "#{pane_current_command}")
		return err != nil || strings.Count(out, program) >= want
	}) || err != nil {
		return err
	}
	return fmt.Errorf("%d of %d panes run %s after a minute", strings.Count(out, program), want, program)
}

// killSessions kills the named sessions in one tmux call.
func killSessions(e *Env, s string, names []string) error {
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
