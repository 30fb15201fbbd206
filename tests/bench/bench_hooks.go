package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/tmux"
)

// Claude Code's installed hook script (the shape every shell hook shares), run as Claude Code
// runs it: from start to its return to the agent, beside a bare `sh -c true`, with a small and a
// 1 MB payload (and until the 1 MB are read, which an agent that waits for its write sees); and
// from start until the pane's state has changed, beside one bare `tmux set-option -p`.
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
		// run runs a program as a Node agent (Claude Code is one) runs its hook: the payload is
		// written to its stdin beside it, and it has returned once it has exited and closed its
		// stdout and stderr. taken is when the payload was all written, which an agent that waits
		// for its write sees. mustRead: the write must not fail, as it would (EPIPE) if the hook
		// stopped reading early; `sh -c true` reads nothing.
		run := func(payload string, mustRead bool, name string, args ...string) (returned, taken time.Duration, err error) {
			r, w, err := os.Pipe()
			if err != nil {
				return 0, 0, err
			}
			cmd := exec.Command(name, args...)
			cmd.Env = append(e.Environ(), env...)
			cmd.Stdin = r
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			start := time.Now()
			if err := cmd.Start(); err != nil {
				r.Close()
				w.Close()
				return 0, 0, err
			}
			r.Close()
			wrote := make(chan error, 1)
			go func() {
				_, err := io.WriteString(w, payload)
				taken = time.Since(start)
				if cerr := w.Close(); err == nil {
					err = cerr
				}
				wrote <- err
			}()
			err = cmd.Wait()
			returned = time.Since(start)
			if werr := <-wrote; werr != nil && mustRead {
				return 0, 0, fmt.Errorf("the agent's write of the payload failed: %v", werr)
			}
			if err != nil {
				return 0, 0, fmt.Errorf("%s: %v: %s", name, err, out.String())
			}
			return returned, taken, nil
		}
		// The state is polled through one control-mode client, a round trip on a connection
		// already open: a new client per look would add its own start to every figure and take
		// the CPU the hook's processes need.
		client := &tmux.Client{Global: []string{"-L", s}, Env: e.Environ()}
		session, err := e.Tmux(s, "display-message", "-p", "-t", pane, "#{session_name}")
		if err != nil {
			return nil, err
		}
		ctl, err := client.StartControl(context.Background(), strings.TrimSpace(session), "no-output", nil)
		if err != nil {
			return nil, err
		}
		defer ctl.Close()
		state := func() string {
			out, _ := ctl.Run(context.Background(), tmux.Cmd{"show-options", "-p", "-v", "-t", pane, "@agent_reported_state"})
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
		bare, err := medianOf(n, func() (time.Duration, error) {
			d, _, err := run(small, false, "sh", "-c", "true")
			return d, err
		})
		if err != nil {
			return nil, err
		}
		events := []struct{ name, state string }{{"Stop", "idle"}, {"UserPromptSubmit", "working"}}
		i := 0
		// hookRun runs the hook once and lets its report land before the next run, so no
		// background work of one run overlaps the next.
		hookRun := func(payload string) (returned, taken, toState time.Duration, err error) {
			i++
			ev := events[i%2]
			start := time.Now()
			if returned, taken, err = run(payload, true, "sh", script, ev.name); err != nil {
				return 0, 0, 0, err
			}
			err = settle(ev.state)
			return returned, taken, time.Since(start), err
		}
		returns := func(payload string) (time.Duration, error) {
			return medianOf(n, func() (time.Duration, error) {
				d, _, _, err := hookRun(payload)
				return d, err
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
		bigTaken, err := medianOf(n, func() (time.Duration, error) {
			_, d, _, err := hookRun(big)
			return d, err
		})
		if err != nil {
			return nil, err
		}
		// Hook to state: from the hook's start until the pane's state has changed.
		toState, err := medianOf(n, func() (time.Duration, error) {
			_, _, d, err := hookRun(small)
			return d, err
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
			{What: "hook's 1 MB payload read in full (agents that wait)", Value: Ms(bigTaken), Unit: "ms"},
			{What: "hook start to pane state changed", Value: Ms(toState), Unit: "ms",
				Baseline: "tmux set-option -p", BaseVal: Ms(setOpt), Goal: "at most 2x"},
		}, nil
	})
}
