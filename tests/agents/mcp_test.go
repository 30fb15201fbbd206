//go:build liveagents

package agents

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/taw-tmux/taw/tests/agents/capture"
	"github.com/taw-tmux/taw/tests/agents/standin"
)

// TestLiveMCP: a real Claude Code with `taw mcp` as its MCP server starts a second Claude Code
// in a new window, prompts it and reads its answer, each through a tool call of its own. The
// stand-in model makes the calls a CALL: message names (see package standin) and repeats each
// call's result in its answer, so the first agent's screen shows what taw gave it.
func TestLiveMCP(t *testing.T) {
	cache, only, list, root := liveSetup(t)
	a := pinnedAgent(t, cache, only, list, "claude", "Claude Code")
	bin := buildTaw(t, root)
	url, _ := serveStandin(t)
	scratch, home, repo := scratchRepo(t, cache, "mcp-claude")
	// Both agents share this HOME: the onboarding, the folder's trust and the API key are
	// settled in it, so the second one taw starts is at its prompt without a dialog.
	const key = "sk-ant-standin-mcp-0123456789abcdef"
	settled, _ := json.Marshal(map[string]any{
		"hasCompletedOnboarding": true, "theme": "dark",
		"customApiKeyResponses": map[string]any{"approved": []string{key[len(key)-20:]}, "rejected": []string{}},
		"projects":              map[string]any{repo: map[string]any{"hasTrustDialogAccepted": true}},
	})
	write(t, filepath.Join(home, ".claude.json"), string(settled))
	sock := fmt.Sprintf("taw-mcp-%d", os.Getpid())
	mcpConfig := filepath.Join(scratch, "mcp.json")
	servers, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"taw": map[string]any{"type": "stdio", "command": filepath.Join(bin, "taw"), "args": []string{"-L", sock, "mcp"}},
	}})
	write(t, mcpConfig, string(servers))

	path := bin + ":" + filepath.Dir(a.Command(cache)[0]) + ":/usr/local/bin:/usr/bin:/bin"
	env := map[string]string{
		"HOME": home, "TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": path,
		"ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": key, "DISABLE_AUTOUPDATER": "1",
		"DISABLE_TELEMETRY": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
	}
	// The test's tmux servers live in its run folder: taw mcp must find this one there.
	if dir := os.Getenv("TMUX_TMPDIR"); dir != "" {
		env["TMUX_TMPDIR"] = dir
	}
	// A window's login shell sets PATH afresh (Debian's /etc/profile does), then reads the
	// person's own profile, where a person puts the folders of their agents.
	write(t, filepath.Join(home, ".profile"), "PATH="+shellWords([]string{path})+"\nexport PATH\n")
	var words []string
	for k, v := range env {
		words = append(words, k+"="+v)
	}
	first := append(append([]string{}, words...), a.Command(cache)...)
	// Manual mode: its hint line says "? for shortcuts" at the prompt, which auto mode's (the
	// default since 2.1.3xx) does not.
	first = append(first, "--mcp-config", mcpConfig, "--allowedTools", "mcp__taw", "--permission-mode", "manual")
	tm := capture.Tmux{Socket: sock}
	// The first agent gets TMUX_PANE from its pane, as a person's would, and passes it to taw mcp.
	if _, err := tm.Run("new-session", "-d", "-s", "live", "-x", "160", "-y", "50", "-c", repo,
		`env -i TMUX="$TMUX" TMUX_PANE="$TMUX_PANE" `+shellWords(first)+"; sleep 600"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tm.Run("kill-server") })
	// The windows taw makes start their shells with the server's environment: the agents' own.
	for k, v := range env {
		if _, err := tm.Run("set-environment", "-g", k, v); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tm.Run("run-shell", "-b", filepath.Join(bin, "taw")+" -L "+sock+" watch --serve >/dev/null 2>&1"); err != nil {
		t.Fatal(err)
	}
	pane := "live:0.0"
	until := func(what string, within time.Duration, ok func(text string) bool) string {
		t.Helper()
		shot, seen, err := capture.Until(tm, pane, "claude", within, func(s capture.Shot) bool { return ok(s.Text()) })
		if err != nil || !seen {
			t.Fatalf("%s: not seen within %s (%v); the first agent's screen:\n%s", what, within, err, shot.Text())
		}
		return shot.Text()
	}
	// Wrapped and indented lines: the words are compared without spaces.
	squeeze := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) {
				return -1
			}
			return r
		}, s)
	}
	// Everything the first agent has shown, its history too, wrapped lines joined.
	shown := func() string {
		out, _ := tm.Run("capture-pane", "-p", "-J", "-S", "-", "-t", pane)
		return squeeze(out)
	}
	answers := func() int { return strings.Count(shown(), squeeze(standin.CallResultPrefix)) }
	call := func(tool string, args map[string]any) string {
		t.Helper()
		b, _ := json.Marshal(args)
		until("the prompt", 90*time.Second, func(s string) bool { return strings.Contains(s, "? for shortcuts") })
		before := answers()
		line := "CALL:mcp__taw__" + tool + " " + string(b)
		if _, err := tm.Run("send-keys", "-t", pane, "-l", line); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second) // Claude Code takes an Enter that comes with the text as part of a paste
		if _, err := tm.Run("send-keys", "-t", pane, "Enter"); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(4 * time.Minute); answers() <= before; time.Sleep(500 * time.Millisecond) {
			if time.Now().After(deadline) {
				screen, _ := tm.Run("capture-pane", "-p", "-t", pane)
				t.Fatalf("%s: no result within 4m; the first agent's screen:\n%s", tool, screen)
			}
		}
		until(tool+"'s turn to end", 90*time.Second, func(s string) bool { return strings.Contains(s, "? for shortcuts") })
		got := shown()
		return got[strings.LastIndex(got, squeeze(standin.CallResultPrefix)):]
	}

	started := call("agent_start", map[string]any{"agent": "claude", "cwd": repo, "timeout_seconds": 120})
	m := regexp.MustCompile(`"pane_id":"(%[0-9]+)"`).FindStringSubmatch(started)
	if m == nil {
		screen, _ := tm.Run("capture-pane", "-p", "-t", "live:1.0")
		status, _ := exec.Command(filepath.Join(bin, "taw"), "-L", sock, "status").CombinedOutput()
		t.Fatalf("agent_start gave no pane: %s\nthe new window shows:\n%s\ntaw status: %s", started, screen, status)
	}
	second := m[1]
	if !strings.Contains(started, `"state":"idle"`) {
		t.Errorf("agent_start did not wait for the agent to be ready: %s", started)
	}
	if cmd, _ := tm.Run("display", "-p", "-t", second, "#{window_index} #{@agent_name}"); strings.TrimSpace(cmd) != "1 claude" {
		t.Errorf("the second agent's pane %s: window and agent %q, want 1 claude", second, strings.TrimSpace(cmd))
	}
	prompted := call("agent_prompt", map[string]any{"target": second, "text": "say hello", "wait": true, "timeout_seconds": 120})
	if !strings.Contains(prompted, `"sent":true`) {
		t.Errorf("agent_prompt: %s", prompted)
	}
	read := call("agent_read", map[string]any{"target": second})
	if !strings.Contains(read, squeeze("Hello from the stand-in model")) {
		t.Errorf("agent_read did not give the second agent's answer: %s", read)
	}
	screen, _ := tm.Run("capture-pane", "-p", "-t", second)
	if !strings.Contains(screen, "Hello from the stand-in model") {
		t.Errorf("the second agent's screen has no answer:\n%s", screen)
	}
	t.Logf("through taw mcp, the first agent started %s, prompted it and read its answer", second)
}
