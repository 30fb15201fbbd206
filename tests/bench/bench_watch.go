package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/taw-tmux/taw/helper/detect"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/procinfo"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/watch"
)

// The watcher's CPU time per look at 10, 50 and 200 panes, 20% of them agents (fake Claude Codes,
// half of them working and repainting a timer every second, half idle), beside a naive watcher
// that names the agent of every pane and captures every pane at every look. The watcher runs in
// this process, so its CPU is this process's plus its tmux clients' (getrusage self + children);
// the tmux server's CPU is measured from /proc, less what it spends with no looks at all, and
// shown in a second line. Both watchers look every watchSpacing; each look is measured on its own
// and the figures are medians.

const (
	watchLooks   = 17
	watchSpacing = 500 * time.Millisecond // more change to read per look than at the 250 ms of looks while agents work: the worse case
	naiveLooks   = 9
)

// fakeAgent paints a Claude Code screen; with "working" it repaints its timer every second.
const fakeAgent = `#!/bin/sh
n=0
while :; do
	printf '\033[H\033[2J'
	if [ "$1" = working ]; then
		printf '● Reading files\n\n✶ Cogitating… (%ds · esc to interrupt)\n\n' "$n"
	else
		printf '● Done.\n\n✻ Worked for 1m 12s\n\n'
	fi
	printf '────────────────────────────────────────\n❯ \n────────────────────────────────────────\n  ? for shortcuts\n'
	[ "$1" = working ] || { sleep 100000; exit; }
	n=$((n+1))
	sleep 1
done
`

func init() {
	register("watch", func(e *Env) ([]Result, error) {
		return withFakeAgents(e, "watchbin", []int{10, 50, 200}, benchWatch)
	})
}

// withFakeAgents runs bench once for each number of panes, with the fake Claude Code (fakeAgent)
// in a folder of its own under the run's and taw's built-in screen rules.
func withFakeAgents(e *Env, folder string, panes []int, bench func(e *Env, bin string, rules *detect.Rules, n int) ([]Result, error)) ([]Result, error) {
	bin := filepath.Join(e.TmpDir, folder)
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(fakeAgent), 0o755); err != nil {
		return nil, err
	}
	rules, _ := detect.Load(func(string) string { return "" })
	var out []Result
	for _, n := range panes {
		rs, err := bench(e, bin, rules, n)
		if err != nil {
			return nil, fmt.Errorf("%d panes: %w", n, err)
		}
		out = append(out, rs...)
	}
	return out, nil
}

func benchWatch(e *Env, bin string, rules *detect.Rules, n int) ([]Result, error) {
	s, err := e.Server(fmt.Sprintf("watch%d", n))
	if err != nil {
		return nil, err
	}
	defer e.Tmux(s, "kill-server")
	agents := n / 5
	var cmds []tmux.Cmd
	for i := 1; i < n; i++ { // the session's first window is pane 1 of n
		c := tmux.Cmd{"new-window", "-d", "-t", "bench"}
		if i <= agents {
			state := "idle"
			if i%2 == 0 {
				state = "working"
			}
			c = append(c, filepath.Join(bin, "claude")+" "+state)
		}
		cmds = append(cmds, c)
	}
	c := &tmux.Client{Global: []string{"-L", s}, Env: e.Environ()}
	ctx := context.Background()
	setup := *c
	setup.Timeout = 3 * time.Minute // 200 shells starting at once take a while on 2 cores
	if _, err := setup.Run(ctx, cmds...); err != nil {
		return nil, fmt.Errorf("make panes: %w", err)
	}
	serverPID, err := c.Output(ctx, "display-message", "-p", "#{pid}")
	if err != nil {
		return nil, err
	}
	spid, _ := strconv.Atoi(serverPID)

	w := watch.New(watch.Config{Client: c, LockDir: filepath.Join(e.TmpDir, "locks-"+s), Rules: rules})
	defer w.Close()
	// Until every agent is named and read, looks are not steady.
	deadline := time.Now().Add(20 * time.Second)
	for {
		look, _, err := w.Look(ctx)
		if err != nil {
			return nil, err
		}
		named := 0
		for _, p := range look.Panes {
			if p.Agent() == "claude" {
				named++
			}
		}
		if named == agents {
			break
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("only %d of %d fake agents named after 20s", named, agents)
		}
		time.Sleep(200 * time.Millisecond)
	}

	// What the server spends on its own in one spacing (the working agents' output), taken off
	// both server figures, so they show what the looks cost it.
	idleSelf, idleServer, err := cpuPerLook(spid, watchLooks, func() error { time.Sleep(watchSpacing); return nil })
	if err != nil {
		return nil, err
	}
	var st watch.Stats
	tawCPU, tawServer, err := cpuPerLook(spid, watchLooks, func() error {
		time.Sleep(watchSpacing) // not measured: CPU time, not wall time, is counted
		_, s1, err := w.Look(ctx)
		st.Captures += s1.Captures
		st.Probes += s1.Probes
		st.TmuxCalls += s1.TmuxCalls
		return err
	})
	if err != nil {
		return nil, err
	}
	// The same spacing, so both carry the same share of the server's work for the agents' output.
	naiveCPU, naiveServer, err := cpuPerLook(spid, naiveLooks, func() error {
		time.Sleep(watchSpacing)
		return naiveLook(ctx, c, rules)
	})
	if err != nil {
		return nil, err
	}
	tawServer = max(0, tawServer-idleServer)
	naiveServer = max(0, naiveServer-idleServer)
	what := fmt.Sprintf("watcher CPU per look, %d panes (%d agents; %.1f captures, %.1f tmux calls)", n, agents,
		float64(st.Captures)/watchLooks, float64(st.TmuxCalls)/watchLooks)
	goal := "≤0.2x"
	if n == 50 {
		goal = "≤0.2x, <10 ms (1% of a core at 1 look/s)"
	}
	rs := []Result{
		{What: what, Value: Ms(tawCPU), Unit: "ms", Baseline: "naive: capture every pane", BaseVal: Ms(naiveCPU), Goal: goal},
		{What: fmt.Sprintf("  the same, tmux server's CPU included, %d panes", n), Value: Ms(tawCPU + tawServer), Unit: "ms",
			Baseline: "naive, server included", BaseVal: Ms(naiveCPU + naiveServer), Goal: "≤0.2x"},
	}
	if n == 10 {
		// What every look of both watchers pays before it does anything: this process waking
		// from the spacing's sleep. At 10 panes it is a large part of a look.
		rs = append(rs, Result{What: "  of which waking from the sleep between looks, no look", Value: Ms(idleSelf), Unit: "ms",
			Baseline: "naive: capture every pane", BaseVal: Ms(naiveCPU), Goal: "(the floor of both)"})
	}
	if n == 200 {
		rs = append(rs, Result{What: "  of which the tmux server's, 200 panes", Value: Ms(tawServer), Unit: "ms",
			Baseline: "naive's server share", BaseVal: Ms(naiveServer), Goal: "half of 15 ms (issue 18's figure)"})
		// Back to back, with no sleep between: what a look costs the server beside the least any
		// call costs it (one pane id per pane), both without waking from a sleep first.
		warmLook, err := serverCPUBackToBack(spid, watchLooks, func() error { _, _, err := w.Look(ctx); return err })
		if err != nil {
			return nil, err
		}
		warmFloor, err := serverCPUBackToBack(spid, watchLooks, func() error {
			_, err := c.Run(ctx, tmux.Cmd{"list-panes", "-a", "-F", "#{pane_id}"})
			return err
		})
		if err != nil {
			return nil, err
		}
		rs = append(rs, Result{What: "  the server's per look, looks back to back, 200 panes", Value: Ms(warmLook), Unit: "ms",
			Baseline: "list-panes -a of pane ids, back to back", BaseVal: Ms(warmFloor), Goal: "(the floor of any call)"})
	}
	return rs, nil
}

// naiveLook is what a watcher without memory or fingerprints does: list the panes, name the
// agent of each from its processes, capture every pane with a tmux call of its own, classify.
func naiveLook(ctx context.Context, c *tmux.Client, rules *detect.Rules) error {
	panes, err := panestate.List(ctx, c)
	if err != nil {
		return err
	}
	for _, p := range panes {
		agent := ""
		if leader, group, _, err := procinfo.Foreground(p.PID); err == nil {
			agent, _ = detect.Identify(leader, group)
		}
		out, err := c.Run(ctx, tmux.Cmd{"capture-pane", "-p", "-t", p.ID})
		if err != nil {
			continue
		}
		if agent != "" {
			rules.Classify(agent, detect.Screen{Lines: strings.Split(out, "\n"), Title: p.Title})
		}
	}
	return nil
}

// cpuPerLook runs look n times and returns the median CPU time per look of this process and its
// children (the tmux clients), and of the tmux server, each look measured on its own: a stray
// garbage collection or a burst of the agents' output moves one sample, not the figure. Each
// look must include a sleep: the server's clock in /proc moves when it sleeps (or at a
// scheduler tick), so it is up to date only then.
func cpuPerLook(serverPID, n int, look func() error) (self, server time.Duration, err error) {
	selfs := make([]time.Duration, 0, n)
	servers := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		s0, c0 := rusage()
		srv0 := procCPU(serverPID)
		if err := look(); err != nil {
			return 0, 0, err
		}
		s1, c1 := rusage()
		srv1 := procCPU(serverPID)
		selfs = append(selfs, (s1-s0)+(c1-c0))
		servers = append(servers, srv1-srv0)
	}
	return medianDuration(selfs), medianDuration(servers), nil
}

// serverCPUBackToBack is the tmux server's mean CPU time per call over n calls made back to back.
// A mean, not a median: between two such calls the server never sleeps, so its clock in /proc
// moves only at scheduler ticks, a few milliseconds apart, and most single calls would read 0.
func serverCPUBackToBack(serverPID, n int, call func() error) (time.Duration, error) {
	srv0 := procCPU(serverPID)
	for i := 0; i < n; i++ {
		if err := call(); err != nil {
			return 0, err
		}
	}
	return (procCPU(serverPID) - srv0) / time.Duration(n), nil
}

func rusage() (self, children time.Duration) {
	var s, c syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &s)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &c)
	tv := func(r syscall.Rusage) time.Duration {
		return time.Duration(r.Utime.Nano() + r.Stime.Nano())
	}
	return tv(s), tv(c)
}

// procCPU is a process's time on a CPU, in nanoseconds, from /proc/<pid>/schedstat; where that
// file is missing, its user+system time from /proc/<pid>/stat, in clock ticks of 10 ms (too coarse
// for a look of a few milliseconds over 16 looks, hence schedstat first).
func procCPU(pid int) time.Duration {
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/schedstat", pid)); err == nil {
		if f := strings.Fields(string(b)); len(f) > 0 {
			if ns, err := strconv.ParseInt(f[0], 10, 64); err == nil {
				return time.Duration(ns)
			}
		}
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		s = s[i+1:]
	}
	f := strings.Fields(s)
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}
