package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// One taw agent prompt, from the call to the keys delivered and the prompt seen taken, beside a
// bare tmux send-keys of the same text and Enter. The pane runs a receiver that writes down each
// line it reads and clears its screen, as an agent takes a prompt out of its input and moves on.
func init() {
	registerOnServer("act", func(e *Env, s string) ([]Result, error) {
		got := filepath.Join(e.TmpDir, "act-received.txt")
		recv := filepath.Join(e.TmpDir, "act-receiver.sh")
		script := "#!/bin/sh\nn=0\nwhile IFS= read -r l; do n=$((n+1)); printf '%s\\n' \"$l\" >>" + got + "; printf '\\033[H\\033[2Jtook prompt %s\\n' $n; done\n"
		if err := os.WriteFile(recv, []byte(script), 0o755); err != nil {
			return nil, err
		}
		pane, err := e.Tmux(s, "new-window", "-d", "-P", "-F", "#{pane_id}", recv)
		if err != nil {
			return nil, fmt.Errorf("start receiver: %v: %s", err, pane)
		}
		if err := e.ReportAgent(s, pane, "idle"); err != nil {
			return nil, err
		}
		const n = 60
		text := "fix the failing test in helper/cli and run it again"
		bare, err := Median(n, func() error {
			_, err := e.Tmux(s, "send-keys", "-t", pane, "-l", "--", text, ";", "send-keys", "-t", pane, "Enter")
			return err
		})
		if err != nil {
			return nil, err
		}
		prompt, err := Median(n, func() error {
			out, err := e.Run(nil, e.Taw, "-L", s, "agent", "prompt", pane, text, "--json")
			if err != nil || !strings.Contains(out, `"enter_again":false`) {
				return fmt.Errorf("agent prompt: %v: %s", err, out)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		b, err := os.ReadFile(got)
		if err != nil {
			return nil, err
		}
		if c := strings.Count(string(b), text+"\n"); c != 2*n {
			return nil, fmt.Errorf("the receiver got %d prompts, want %d", c, 2*n)
		}
		return []Result{{
			What: "taw agent prompt (call to keys delivered and taken)", Value: Ms(prompt), Unit: "ms",
			Baseline: "tmux send-keys text + Enter", BaseVal: Ms(bare), Goal: "none set",
		}}, nil
	})
}
