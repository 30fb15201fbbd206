package main

import "fmt"

// One taw pane report-agent end to end, beside one bare tmux set-option -p on the same server.
func init() {
	registerOnPane("report", func(e *Env, s, pane string) ([]Result, error) {
		const n = 200
		bare, err := Median(n, setOptionBaseline(e, s, pane))
		if err != nil {
			return nil, err
		}
		states := []string{"working", "idle", "blocked"}
		i := 0
		report, err := Median(n, func() error {
			i++
			return e.ReportAgent(s, pane, states[i%3], "--seq", fmt.Sprint(i))
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
