package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/detect"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/watch"
)

// Save and restore of 500 panes (50 sessions of 2 windows of 5 panes) beside two busy loops, one
// for each core of the test machine: each run must succeed however slow tmux gets. The rows are
// medians of a few runs, beside bare tmux making and listing as much, under the same load.
const (
	scaleSessions = 50
	scaleRuns     = 3
)

func init() {
	registerOnServer("scale-session", func(e *Env, s string) ([]Result, error) {
		if _, err := e.Tmux(s, "set-option", "-g", "default-command", "exec /bin/sh"); err != nil {
			return nil, err
		}
		var names []string
		for i := 0; i < scaleSessions; i++ {
			names = append(names, fmt.Sprintf("b%02d", i))
		}
		create := func() error {
			// Ten sessions a call: fifty would pass what one tmux client call may carry.
			for i := 0; i < len(names); i += 10 {
				if out, err := e.Tmux(s, createCmds(names[i:i+10])...); err != nil {
					return fmt.Errorf("create panes: %v: %s", err, out)
				}
			}
			return nil
		}
		kill := func() error {
			for i := 0; i < len(names); i += 10 {
				if err := killSessions(e, s, names[i:i+10]); err != nil {
					return err
				}
			}
			return nil
		}
		if err := create(); err != nil {
			return nil, err
		}
		panes, err := e.Tmux(s, "list-panes", "-a", "-f", "#{!=:#{session_name},bench}", "-F", "#{pane_id}")
		if err != nil {
			return nil, err
		}
		if n := len(strings.Fields(panes)); n != 10*scaleSessions {
			return nil, fmt.Errorf("made %d panes, want %d", n, 10*scaleSessions)
		}
		stop, err := e.BusyLoops(2)
		if err != nil {
			return nil, err
		}
		defer stop()
		load := loadAverage()
		bareList, err := Median(scaleRuns, func() error { _, err := e.Tmux(s, "list-panes", "-a"); return err })
		if err != nil {
			return nil, err
		}
		save, err := Median(scaleRuns, func() error {
			_, err := e.TawOn(s, "session", "save", "--name", "scale")
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("save: %v", err)
		}
		bareCreate, err := timedAfter(scaleRuns, kill, create)
		if err != nil {
			return nil, err
		}
		restore, err := timedAfter(scaleRuns, kill, func() error {
			out, err := e.TawOn(s, "session", "restore", "--name", "scale")
			if err != nil {
				return err
			}
			got, err := e.Tmux(s, "list-panes", "-a", "-f", "#{!=:#{session_name},bench}", "-F", "#{pane_id}")
			if err != nil {
				return err
			}
			if n := len(strings.Fields(got)); n != 10*scaleSessions {
				return fmt.Errorf("restore made %d panes, want %d: %s", n, 10*scaleSessions, out)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("restore: %v", err)
		}
		what := fmt.Sprintf("%d panes, 2 busy loops (load %.1f)", 10*scaleSessions, load)
		return []Result{
			{What: "taw session save, " + what, Value: Ms(save), Unit: "ms", Baseline: "tmux list-panes -a", BaseVal: Ms(bareList), Goal: fmt.Sprintf("%d of %d succeed", scaleRuns, scaleRuns)},
			{What: "taw session restore, " + what, Value: Ms(restore), Unit: "ms", Baseline: "raw tmux: create the panes", BaseVal: Ms(bareCreate), Goal: fmt.Sprintf("%d of %d succeed", scaleRuns, scaleRuns)},
		}, nil
	})
}

// BusyLoops starts n shell loops that keep a core busy each, until stop (or the bench's
// clean-up) ends them.
func (e *Env) BusyLoops(n int) (stop func(), err error) {
	var cmds []*exec.Cmd
	stop = func() {
		for _, c := range cmds {
			_ = c.Process.Kill()
			_, _ = c.Process.Wait()
		}
		cmds = nil
	}
	for i := 0; i < n; i++ {
		c := exec.Command("sh", "-c", "while :; do :; done")
		if err := c.Start(); err != nil {
			stop()
			return nil, err
		}
		cmds = append(cmds, c)
		e.procs = append(e.procs, c)
	}
	time.Sleep(time.Second) // for the load to show in the load average's first figure, a little
	return stop, nil
}

// loadAverage is the machine's load average over the last minute.
func loadAverage() float64 {
	out, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var l float64
	fmt.Sscan(string(out), &l)
	return l
}

// 500 and 1,000 fake agents (idle Claude Codes) started in one tmux call, and a watcher looking
// every 500 ms from then on: how long until every one is named, in how many looks, and the
// watcher's open files at the end, beside tmux's own time to make the panes.
func init() {
	register("scale-watch", func(e *Env) ([]Result, error) {
		return withFakeAgents(e, "scalebin", []int{500, 1000}, benchNaming)
	})
}

func benchNaming(e *Env, bin string, rules *detect.Rules, n int) ([]Result, error) {
	s, err := e.Server(fmt.Sprintf("name%d", n))
	if err != nil {
		return nil, err
	}
	defer e.Tmux(s, "kill-server")
	c := &tmux.Client{Global: []string{"-L", s}, Env: e.Environ()}
	ctx := context.Background()
	if _, err := c.Run(ctx, tmux.Cmd{"set-option", "-g", "default-command", "exec /bin/sh"}); err != nil {
		return nil, err
	}
	var cmds []tmux.Cmd
	for i := 0; i < n; i++ {
		cmds = append(cmds, tmux.Cmd{"new-window", "-d", "-t", "bench:", filepath.Join(bin, "claude") + " idle"})
	}
	w := watch.New(watch.Config{Client: c, LockDir: filepath.Join(e.TmpDir, "locks-"+s), Rules: rules})
	defer w.Close()
	load := loadAverage()
	start := time.Now()
	made := make(chan error, 1)
	go func() {
		maker := *c
		maker.Timeout = time.Minute // the patience: a busy server that works is waited for
		_, err := maker.Run(ctx, cmds...)
		made <- err
	}()
	var madeIn time.Duration
	looks, calls := 0, 0
	for {
		select {
		case err := <-made:
			if err != nil {
				return nil, fmt.Errorf("make panes: %w", err)
			}
			madeIn = time.Since(start)
			made = nil
		default:
		}
		time.Sleep(500 * time.Millisecond)
		look, st, err := w.Look(ctx)
		if err != nil {
			return nil, err
		}
		looks++
		calls += st.TmuxCalls
		named := 0
		for _, p := range look.Panes {
			if p.Agent() == "claude" {
				named++
			}
		}
		if named == n && made == nil {
			break
		}
		if time.Since(start) > 5*time.Minute {
			return nil, fmt.Errorf("%d of %d agents named after 5 minutes", named, n)
		}
	}
	all := time.Since(start)
	fds := fdCount(os.Getpid())
	return []Result{
		{What: fmt.Sprintf("%d agents all named, from their start (load %.1f)", n, load), Value: all.Seconds(), Unit: "s", Baseline: "tmux making the panes", BaseVal: madeIn.Seconds(), Goal: "within 10 s"},
		{What: fmt.Sprintf("  looks until then (%d tmux calls)", calls), Value: float64(looks), Unit: "looks", Goal: "a few looks"},
		{What: "  open files of the watcher (this process) at the end", Value: float64(fds), Unit: "fds", Goal: "bounded, not one a pane"},
	}, nil
}
