package main

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// The set-up and timing every benchmark shares: a server of its own, its first pane, taw run
// against it, medians, and bounded waits.

// registerOnServer registers a benchmark that runs on a fresh tmux server of its own, named
// after it.
func registerOnServer(name string, run func(e *Env, s string) ([]Result, error)) {
	register(name, func(e *Env) ([]Result, error) {
		s, err := e.Server(name)
		if err != nil {
			return nil, err
		}
		return run(e, s)
	})
}

// registerOnPane is registerOnServer for a benchmark that works on the server's first pane.
func registerOnPane(name string, run func(e *Env, s, pane string) ([]Result, error)) {
	registerOnServer(name, func(e *Env, s string) ([]Result, error) {
		pane, err := e.Tmux(s, "display-message", "-p", "-t", "bench:0.0", "#{pane_id}")
		if err != nil {
			return nil, err
		}
		return run(e, s, pane)
	})
}

// TawOn runs taw on server s and fails with what it printed.
func (e *Env) TawOn(s string, args ...string) (string, error) {
	out, err := e.Run(nil, e.Taw, append([]string{"-L", s}, args...)...)
	if err != nil {
		return out, fmt.Errorf("taw %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return out, nil
}

// ReportAgent reports the bench agent in pane on server s (source and agent "bench"), with
// any further flags.
func (e *Env) ReportAgent(s, pane, state string, more ...string) error {
	_, err := e.TawOn(s, append([]string{"pane", "report-agent", pane, "--source", "bench", "--agent", "bench", "--state", state}, more...)...)
	return err
}

// Median times f n times and returns the median duration.
func Median(n int, f func() error) (time.Duration, error) {
	return timedAfter(n, func() error { return nil }, f)
}

// timedAfter runs setup then f, n times, and returns the median time of f alone.
func timedAfter(n int, setup, f func() error) (time.Duration, error) {
	return medianOf(n, func() (time.Duration, error) {
		if err := setup(); err != nil {
			return 0, err
		}
		t := time.Now()
		err := f()
		return time.Since(t), err
	})
}

// medianOf is the median of what f measures itself, for runs whose set-up must not count.
func medianOf(n int, f func() (time.Duration, error)) (time.Duration, error) {
	ds := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		d, err := f()
		if err != nil {
			return 0, err
		}
		ds = append(ds, d)
	}
	return medianDuration(ds), nil
}

// medianDuration is the median of ds, which it leaves in their order.
func medianDuration(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// Ms is a duration in milliseconds.
func Ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// waitFor asks done every interval until it says yes (true), or limit has passed (false).
func waitFor(limit, interval time.Duration, done func() bool) bool {
	deadline := time.Now().Add(limit)
	for !done() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(interval)
	}
	return true
}

// setOptionBaseline is one bare tmux set-option -p on pane, the least a report can cost.
func setOptionBaseline(e *Env, s, pane string) func() error {
	i := 0
	return func() error {
		i++
		_, err := e.Tmux(s, "set-option", "-p", "-t", pane, "@bench", fmt.Sprint(i))
		return err
	}
}
