package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/tmux"
)

// Claude Code's installed hook script (the shape every shell hook shares), run as Claude Code
// runs it: from start to its return to the agent, beside a bare `sh -c true`, with a small and a
// 1 MB payload; and from start until the pane's state has changed, beside one bare
// `tmux set-option -p`.
func init() {
	registerOnPane("hooks", func(e *Env, s, pane string) ([]Result, error) {
		socket, err := e.Tmux(s, "display-message", "-p", "#{socket_path}")
		if err != nil {
			return nil, err
		}
		home := filepath.Join(e.TmpDir, "hooks-home")
		if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
			return nil, err
		}
		env := []string{"HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"),
			"XDG_STATE_HOME=" + filepath.Join(home, ".state"), "TMPDIR=" + e.TmpDir,
			"PATH=" + filepath.Dir(e.Taw) + string(os.PathListSeparator) + os.Getenv("PATH"),
			"TMUX=" + socket + ",1,0", "TMUX_PANE=" + pane}
		if out, err := e.Run(env, e.Taw, "integration", "install", "claude"); err != nil {
			return nil, fmt.Errorf("install: %v: %s", err, out)
		}
		script := filepath.Join(home, ".claude", "hooks", "taw-agent-state.sh")
		small := `{"session_id":"bench","transcript_path":"/t.jsonl","cwd":"/","permission_mode":"default","hook_event_name":"Stop","stop_hook_active":false}`
		// A PostToolUse of a tool that printed 1 MB: the keys come first, the output after.
		big := `{"session_id":"bench","transcript_path":"/t.jsonl","cwd":"/","permission_mode":"default","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"cat big"},"tool_response":{"stdout":"` +
			strings.Repeat("x", 1<<20) + `","stderr":""}}`
		run := func(payload, name string, args ...string) error {
			cmd := exec.Command(name, args...)
			cmd.Env = append(e.Environ(), env...)
			cmd.Stdin = strings.NewReader(payload)
			return cmd.Run()
		}
		client := &tmux.Client{Global: []string{"-L", s}, Env: e.Environ()}
		state := func() string {
			out, _ := client.Output(context.Background(), "show-options", "-p", "-v", "-t", pane, "@agent_reported_state")
			return strings.TrimSpace(out)
		}
		// settle waits until the pane's state is want, so no report of one run lands in the next.
		settle := func(want string) error {
			deadline := time.Now().Add(10 * time.Second)
			for state() != want {
				if time.Now().After(deadline) {
					return fmt.Errorf("the hook's report never landed (state %q, want %q)", state(), want)
				}
				time.Sleep(100 * time.Microsecond)
			}
			return nil
		}
		const n = 100
		bare, err := Median(n, func() error { return run(small, "sh", "-c", "true") })
		if err != nil {
			return nil, err
		}
		events := []struct{ name, state string }{{"Stop", "idle"}, {"UserPromptSubmit", "working"}}
		i := 0
		// returns times the script's return only; its report is let land before the next run,
		// so no background work of one run overlaps the next.
		returns := func(payload string) (time.Duration, error) {
			return medianOf(n, func() (time.Duration, error) {
				i++
				ev := events[i%2]
				start := time.Now()
				if err := run(payload, "sh", script, ev.name); err != nil {
					return 0, err
				}
				d := time.Since(start)
				return d, settle(ev.state)
			})
		}
		hook, err := returns(small)
		if err != nil {
			return nil, err
		}
		bigReturn, err := returns(big)
		if err != nil {
			return nil, err
		}
		// Hook to state: from the hook's start until the pane's state has changed.
		toState, err := medianOf(n, func() (time.Duration, error) {
			i++
			ev := events[i%2]
			start := time.Now()
			if err := run(small, "sh", script, ev.name); err != nil {
				return 0, err
			}
			if err := settle(ev.state); err != nil {
				return 0, err
			}
			return time.Since(start), nil
		})
		if err != nil {
			return nil, err
		}
		setOpt, err := Median(n, setOptionBaseline(e, s, pane))
		if err != nil {
			return nil, err
		}
		return []Result{
			{What: "hook script returning to the agent (claude, one event)", Value: Ms(hook), Unit: "ms",
				Baseline: "sh -c true", BaseVal: Ms(bare), Goal: "at most 1.5x"},
			{What: "hook script returning to the agent (1 MB payload)", Value: Ms(bigReturn), Unit: "ms",
				Baseline: "sh -c true", BaseVal: Ms(bare), Goal: "at most 1.5x, flat in payload size"},
			{What: "hook start to pane state changed", Value: Ms(toState), Unit: "ms",
				Baseline: "tmux set-option -p", BaseVal: Ms(setOpt), Goal: "at most 2x"},
		}, nil
	})
}
