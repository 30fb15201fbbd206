package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The soak: two tmux servers side by side for soakFor (-soak). On one, soakReporters agents
// report through `taw pane report-agent`, changing state at every other report, with a real
// `taw watch` looking; on the other, as many bare reporters run what a report must at least do,
// `tmux set-option -p` three times and `wait-for -S`, at the same pace. Each server first runs
// soakWarm reports per reporter, so tmux's message log (1,000 lines, bounded) is full on both
// before the measuring starts. The rows are the slopes (least squares over samples every
// soakSample) of both servers' memory, per minute and per report, and the watcher's memory, fds
// and CPU; the goal is the issue's.

const (
	soakReporters = 4
	soakPace      = 100 * time.Millisecond // between one reporter's reports
	soakWarm      = 100
	soakSample    = time.Second
)

func init() {
	register("soak", func(e *Env) ([]Result, error) {
		taw, err := e.Server("soak-taw")
		if err != nil {
			return nil, err
		}
		bare, err := e.Server("soak-bare")
		if err != nil {
			return nil, err
		}
		tawPanes, err := soakPanes(e, taw)
		if err != nil {
			return nil, err
		}
		barePanes, err := soakPanes(e, bare)
		if err != nil {
			return nil, err
		}
		// TAW_BENCH_SOAK_WATCHER=off leaves the watcher out, to tell the reports' share of the
		// server's growth from the looks'.
		watcher := exec.Command(e.Taw, "-L", taw, "watch", "--interval", "500ms")
		if os.Getenv("TAW_BENCH_SOAK_WATCHER") == "off" {
			watcher = exec.Command("sleep", "100000")
		}
		watcher.Env = e.Environ()
		if err := watcher.Start(); err != nil {
			return nil, err
		}
		e.procs = append(e.procs, watcher)
		defer func() { _ = watcher.Process.Kill(); _, _ = watcher.Process.Wait() }()

		i := 0
		report := func(s, pane string) error {
			i++
			state := "working"
			if i%2 == 0 {
				state = "idle"
			}
			return e.ReportAgent(s, pane, state)
		}
		var n atomic.Int64
		bareReport := func(s, pane string) error {
			v := strconv.FormatInt(n.Add(1), 10)
			_, err := e.Tmux(s, "set-option", "-p", "-t", pane, "@agent_state", v, ";",
				"set-option", "-p", "-t", pane, "@agent_updated", v, ";",
				"set-option", "-p", "-t", pane, "@agent_state_since", v, ";", "wait-for", "-S", "bench-state")
			return err
		}
		for k := 0; k < soakWarm; k++ {
			for p := 0; p < soakReporters; p++ {
				if err := report(taw, tawPanes[p]); err != nil {
					return nil, err
				}
				if err := bareReport(bare, barePanes[p]); err != nil {
					return nil, err
				}
			}
		}
		tawPID, err := serverPID(e, taw)
		if err != nil {
			return nil, err
		}
		barePID, err := serverPID(e, bare)
		if err != nil {
			return nil, err
		}

		// Both kinds of reporter run at once, so the machine's load falls on both alike.
		var reports [2]atomic.Int64
		var firstErr atomic.Value
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for p := 0; p < soakReporters; p++ {
			k := 0
			for kind, run := range []func() error{
				func() error { k++; return e.ReportAgent(taw, tawPanes[p], []string{"working", "idle"}[k%2]) },
				func() error { return bareReport(bare, barePanes[p]) },
			} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					tick := time.NewTicker(soakPace)
					defer tick.Stop()
					for {
						select {
						case <-stop:
							return
						case <-tick.C:
						}
						if err := run(); err != nil {
							firstErr.CompareAndSwap(nil, err)
							return
						}
						reports[kind].Add(1)
					}
				}()
			}
		}
		type sample struct {
			t                         float64 // minutes since the start
			tawKB, bareKB, watchKB    float64
			watchFDs                  int
			watchCPU, tawCPU, bareCPU float64 // seconds
			tawReports, bareReports   int64
		}
		var samples []sample
		start := time.Now()
		take := func() {
			samples = append(samples, sample{
				t: time.Since(start).Minutes(), tawKB: rssKB(tawPID), bareKB: rssKB(barePID), watchKB: rssKB(watcher.Process.Pid),
				watchFDs: fdCount(watcher.Process.Pid), watchCPU: cpuSeconds(watcher.Process.Pid), tawCPU: cpuSeconds(tawPID), bareCPU: cpuSeconds(barePID),
				tawReports: reports[0].Load(), bareReports: reports[1].Load(),
			})
		}
		take()
		for time.Since(start) < soakFor {
			time.Sleep(soakSample)
			take()
		}
		close(stop)
		wg.Wait()
		if err, ok := firstErr.Load().(error); ok {
			return nil, err
		}
		if len(samples) < 3 {
			return nil, fmt.Errorf("too few samples: make -soak longer")
		}
		col := func(f func(s sample) float64) (xs, ys []float64) {
			for _, s := range samples {
				xs, ys = append(xs, s.t), append(ys, f(s))
			}
			return xs, ys
		}
		first, last := samples[0], samples[len(samples)-1]
		minutes := last.t - first.t
		tawSlope := slope(col(func(s sample) float64 { return s.tawKB }))
		bareSlope := slope(col(func(s sample) float64 { return s.bareKB }))
		watchSlope := slope(col(func(s sample) float64 { return s.watchKB }))
		tawRate := float64(last.tawReports-first.tawReports) / minutes
		bareRate := float64(last.bareReports-first.bareReports) / minutes
		perReport := func(kbPerMin, rate float64) float64 {
			if rate == 0 {
				return 0
			}
			return kbPerMin * 1024 / rate
		}
		pct := func(a, b float64) float64 { return (b - a) / (minutes * 60) * 100 }
		dur := fmt.Sprintf("%s, %d reporters", soakFor, soakReporters)
		return []Result{
			{What: "soak " + dur + ": server growth, taw reports", Value: tawSlope, Unit: "KB/min", Baseline: "bare set-option reporters", BaseVal: bareSlope, Goal: "within 1.5x"},
			{What: "soak: server growth per report", Value: perReport(tawSlope, tawRate), Unit: "B", Baseline: "bare set-option reporters", BaseVal: perReport(bareSlope, bareRate), Goal: "within 1.5x"},
			{What: "soak: reports made", Value: tawRate, Unit: "/min", Baseline: "bare set-option reporters", BaseVal: bareRate},
			{What: "soak: server CPU", Value: pct(first.tawCPU, last.tawCPU), Unit: "%", Baseline: "bare set-option reporters", BaseVal: pct(first.bareCPU, last.bareCPU)},
			{What: fmt.Sprintf("soak: watcher memory (%.0f -> %.0f KB)", first.watchKB, last.watchKB), Value: watchSlope, Unit: "KB/min", Goal: "flat"},
			{What: fmt.Sprintf("soak: watcher fds (%d -> %d)", first.watchFDs, last.watchFDs), Value: float64(last.watchFDs - first.watchFDs), Unit: "fds", Goal: "flat"},
			{What: "soak: watcher CPU", Value: pct(first.watchCPU, last.watchCPU), Unit: "%", Goal: "of one core"},
		}, nil
	})
}

// soakPanes makes soakReporters panes running a long sleep and returns their ids.
func soakPanes(e *Env, s string) ([]string, error) {
	var panes []string
	for p := 0; p < soakReporters; p++ {
		id, err := e.Tmux(s, "new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "bench", "sleep 100000")
		if err != nil {
			return nil, fmt.Errorf("new window: %v: %s", err, id)
		}
		panes = append(panes, id)
	}
	return panes, nil
}

func serverPID(e *Env, s string) (int, error) {
	out, err := e.Tmux(s, "display-message", "-p", "#{pid}")
	if err != nil {
		return 0, fmt.Errorf("server pid: %v: %s", err, out)
	}
	return strconv.Atoi(out)
}

// rssKB is a process's resident memory in KB (0 when it is gone).
func rssKB(pid int) float64 {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			v, _ := strconv.ParseFloat(f[1], 64)
			return v
		}
	}
	return 0
}

func fdCount(pid int) int {
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	return len(fds)
}

// cpuSeconds is a process's user and system time so far.
func cpuSeconds(pid int) float64 {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		f := strings.Fields(s[i+1:])
		if len(f) > 12 {
			u, _ := strconv.ParseFloat(f[11], 64)
			k, _ := strconv.ParseFloat(f[12], 64)
			return (u + k) / 100 // USER_HZ
		}
	}
	return 0
}

// slope is the least-squares slope of ys over xs.
func slope(xs, ys []float64) float64 {
	n := float64(len(xs))
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx, sy, sxx, sxy = sx+xs[i], sy+ys[i], sxx+xs[i]*xs[i], sxy+xs[i]*ys[i]
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return 0
	}
	return (n*sxy - sx*sy) / d
}
