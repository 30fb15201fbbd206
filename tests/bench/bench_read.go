package main

import (
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// The read side: taw agent list --json over 200 panes beside one bare tmux list-panes -a, and
// the delay from a report to a waiting taw agent wait returning beside a bare tmux wait-for
// signal round trip, all on the same server.
func init() {
	registerOnServer("read", func(e *Env, s string) ([]Result, error) {
		panes, err := benchPanes(e, s, 200)
		if err != nil {
			return nil, err
		}
		const n = 50
		bare, err := Median(n, func() error {
			_, err := e.Tmux(s, "list-panes", "-a", "-F", "#{pane_id} #{@agent_name} #{@agent_state}")
			return err
		})
		if err != nil {
			return nil, err
		}
		list, err := Median(n, func() error {
			out, err := e.TawOn(s, "agent", "list", "--json")
			if err != nil {
				return err
			}
			if c := strings.Count(out, `"pane_id"`); c != len(panes) {
				return fmt.Errorf("agent list printed %d agents, want %d", c, len(panes))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}

		wake, err := benchWaitRoundTrip(e, s, panes[0])
		if err != nil {
			return nil, err
		}
		signal, err := benchSignalRoundTrip(e, s)
		if err != nil {
			return nil, err
		}
		return []Result{
			{What: "taw agent list --json, 200 agents (one tmux call, no screens)", Value: Ms(list), Unit: "ms",
				Baseline: "tmux list-panes -a", BaseVal: Ms(bare), Goal: "≤2x, under 50 ms"},
			{What: "report → waiting taw agent wait returns", Value: Ms(wake), Unit: "ms",
				Baseline: "tmux wait-for -S → waiter returns", BaseVal: Ms(signal), Goal: "under 50 ms"},
		}, nil
	})
}

// benchPanes makes the server hold count panes, every one with an agent in its options, and
// returns their ids.
func benchPanes(e *Env, s string, count int) ([]string, error) {
	for i := 1; i < count; i++ {
		if _, err := e.Tmux(s, "new-window", "-d", "-t", "bench:", "sleep 100000"); err != nil {
			return nil, fmt.Errorf("new-window: %v", err)
		}
	}
	out, err := e.Tmux(s, "list-panes", "-a", "-F", "#{pane_id}")
	if err != nil {
		return nil, err
	}
	panes := strings.Fields(out)
	states := []string{"idle", "working", "blocked"}
	var batch []string
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		_, err := e.Tmux(s, batch...)
		batch = nil
		return err
	}
	for i, p := range panes {
		if len(batch) > 0 {
			batch = append(batch, ";")
		}
		batch = append(batch,
			"set", "-p", "-t", p, "@agent_name", fmt.Sprintf("agent-%d", i), ";",
			"set", "-p", "-t", p, "@agent_state", states[i%3], ";",
			"set", "-p", "-t", p, "@agent_state_since", fmt.Sprint(time.Now().UnixMilli()), ";",
			"set", "-p", "-t", p, "@agent_message", "a message of some length, as agents send")
		if i%20 == 19 {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	return panes, flush()
}

// benchWaitRoundTrip is the median time from the start of a report that ends a turn to the
// return of a taw agent wait that was waiting for it.
func benchWaitRoundTrip(e *Env, s, pane string) (time.Duration, error) {
	report := func(state string) error { return e.ReportAgent(s, pane, state) }
	return medianOf(20, func() (time.Duration, error) {
		if err := report("working"); err != nil {
			return 0, err
		}
		wait := exec.Command(e.Taw, "-L", s, "agent", "wait", pane, "--until", "idle", "--timeout", "10s")
		wait.Env = e.Environ()
		if err := wait.Start(); err != nil {
			return 0, err
		}
		// Give the wait time to settle into tmux's wait-for; only the time after the report counts.
		time.Sleep(150 * time.Millisecond)
		start := time.Now()
		if err := report("idle"); err != nil {
			return 0, err
		}
		if err := wait.Wait(); err != nil {
			return 0, fmt.Errorf("agent wait: %v", err)
		}
		return time.Since(start), nil
	})
}

// benchSignalRoundTrip is the median time from the start of a bare tmux wait-for -S to the
// return of a tmux wait-for waiting on that channel.
func benchSignalRoundTrip(e *Env, s string) (time.Duration, error) {
	return medianOf(20, func() (time.Duration, error) {
		wait := exec.Command("tmux", "-L", s, "wait-for", "bench-channel")
		wait.Env = e.Environ()
		if err := wait.Start(); err != nil {
			return 0, err
		}
		time.Sleep(150 * time.Millisecond)
		start := time.Now()
		if _, err := e.Tmux(s, "wait-for", "-S", "bench-channel"); err != nil {
			return 0, err
		}
		if err := wait.Wait(); err != nil {
			return 0, err
		}
		return time.Since(start), nil
	})
}
