package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// One run of an installed hook script (Claude Code's, the shape every shell hook shares), from
// start to its return to the agent, beside a bare `sh -c true`: the report itself runs in the
// background after the script has returned.
func init() {
	register("hooks", func(e *Env) ([]Result, error) {
		s, err := e.Server("hooks")
		if err != nil {
			return nil, err
		}
		pane, err := e.Tmux(s, "display-message", "-p", "-t", "bench:0.0", "#{pane_id}")
		if err != nil {
			return nil, err
		}
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
		payload := `{"session_id":"bench","transcript_path":"/t.jsonl","cwd":"/","permission_mode":"default","hook_event_name":"Stop","stop_hook_active":false}`
		run := func(name string, args ...string) error {
			cmd := exec.Command(name, args...)
			cmd.Env = append(e.Environ(), env...)
			cmd.Stdin = strings.NewReader(payload)
			return cmd.Run()
		}
		const n = 100
		bare, err := Median(n, func() error { return run("sh", "-c", "true") })
		if err != nil {
			return nil, err
		}
		states := []string{"Stop", "UserPromptSubmit"}
		i := 0
		hook, err := Median(n, func() error {
			i++
			return run("sh", script, states[i%2])
		})
		if err != nil {
			return nil, err
		}
		return []Result{{
			What: "hook script returning to the agent (claude, one event)", Value: Ms(hook), Unit: "ms",
			Baseline: "sh -c true", BaseVal: Ms(bare), Goal: "never slows the agent",
		}}, nil
	})
}
