package main

import "fmt"

// One taw pane report-agent end to end, beside one bare tmux set-option -p on the same server.
func init() {
	register("report", func(e *Env) ([]Result, error) {
		s, err := e.Server("report")
		if err != nil {
			return nil, err
		}
		pane, err := e.Tmux(s, "display-message", "-p", "-t", "bench:0.0", "#{pane_id}")
		if err != nil {
			return nil, err
		}
		const n = 200
		i := 0
		bare, err := Median(n, func() error {
			i++
			_, err := e.Tmux(s, "set-option", "-p", "-t", pane, "@bench", fmt.Sprint(i))
			return err
		})
		if err != nil {
			return nil, err
		}
		states := []string{"working", "idle", "blocked"}
		report, err := Median(n, func() error {
			i++
			out, err := e.Run(nil, e.Taw, "-L", s, "pane", "report-agent", pane, "--source", "bench", "--agent", "bench", "--state", states[i%3], "--seq", fmt.Sprint(i))
			if err != nil {
				return fmt.Errorf("report-agent: %v: %s", err, out)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		return []Result{{
			What: "taw pane report-agent (end to end)", Value: Ms(report), Unit: "ms",
			Baseline: "tmux set-option -p", BaseVal: Ms(bare), Goal: "at most 1.5x",
		}}, nil
	})
}
