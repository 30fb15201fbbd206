package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/detect"
)

// One screen classification, the watcher's per-pane cost once a screen has changed: Claude
// Code's rules over a 200-line idle screen (every rule is tried before the prompt box decides),
// beside one strings.Contains over the same text, the least a screen check can cost.
func init() {
	register("detect", func(e *Env) ([]Result, error) {
		rs, errs := detect.Load(func(string) string { return "" })
		if len(errs) > 0 {
			return nil, fmt.Errorf("load rules: %v", errs[0])
		}
		s := benchScreen(200)
		if v := rs.Classify("claude", s); v.RuleID != "prompt-box" {
			return nil, fmt.Errorf("bench screen classified as %s, want prompt-box", v.RuleID)
		}
		const batch = 200
		perCall := func(f func()) (float64, error) {
			d, err := Median(25, func() error {
				for i := 0; i < batch; i++ {
					f()
				}
				return nil
			})
			return float64(d) / float64(time.Microsecond) / batch, err
		}
		joined := strings.Join(s.Lines, "\n")
		found := false
		base, err := perCall(func() { found = found != strings.Contains(joined, "esc to interrupt") })
		if err != nil {
			return nil, err
		}
		classify, err := perCall(func() { rs.Classify("claude", s) })
		if err != nil {
			return nil, err
		}
		return []Result{{
			What: "detect Classify, claude, 200-line screen", Value: classify, Unit: "µs",
			Baseline: "strings.Contains over the screen", BaseVal: base, Goal: "none set (per changed screen)",
		}}, nil
	})
}

// benchScreen is a Claude Code session: a long transcript, then the idle input box.
func benchScreen(n int) detect.Screen {
	rule := strings.Repeat("─", 100)
	var lines []string
	for len(lines) < n-6 {
		lines = append(lines,
			"● Read(helper/detect/rules.go)",
			"  ⎿  Read 312 lines",
			"",
			"● The loader keeps the embedded rules when an override is broken, and reports the file and",
			"  line. I'll add a test for that next.",
			"")
	}
	lines = append(lines[:n-6], "✻ Worked for 2m 3s", "", rule, "❯\u00a0", rule, "  ? for shortcuts")
	return detect.Screen{Lines: lines, Title: "✳ Claude Code"}
}
