package tests

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCP drives taw mcp with the MCP SDK's own client against a real tmux server, a real
// watcher and a stand-in that paints Claude Code's real screens: split a pane with an argument
// vector and read it, start an agent, prompt it, wait for its states, be refused a prompt while
// it is blocked, answer its dialog, and run a line in a shell pane. --read-only lists only the
// reading tools.
func TestMCP(t *testing.T) {
	work := t.TempDir()
	sockDir, err := os.MkdirTemp("/tmp", "tawm")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(sockDir)
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	// The scripts' stand-in agent, named claude, first on the server's PATH.
	standin, err := os.ReadFile(filepath.Join(root, "tests/standin/agent.bash"))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(work, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "claude"), standin, 0o755); err != nil {
		t.Fatal(err)
	}
	fix := filepath.Join(root, "helper/prompt/testdata/claude")
	screen := func(file, name string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(work, file), []byte(filepath.Join(fix, "real_2.1.197_"+name+".txt")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	screen("claude.screen", "idle_prompt")
	// A login shell's profile sets PATH anew: the stand-in goes first again.
	if err := os.WriteFile(filepath.Join(work, ".profile"), []byte("PATH=\"$WORK/bin:$PATH\"\nexport PATH\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WORK", work)
	t.Setenv("HOME", work)
	t.Setenv("XDG_RUNTIME_DIR", sockDir)
	t.Setenv("SHELL", "/bin/sh")
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	name, kill := startTmux(t, "mcp", sockDir, 160, 40)
	defer kill()
	tmux := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("tmux", append([]string{"-L", name}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	tmux("run-shell", "-b", "taw -L "+name+" watch --serve >/dev/null 2>&1")

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	connect := func(args ...string) *mcp.ClientSession {
		t.Helper()
		client := mcp.NewClient(&mcp.Implementation{Name: "taw-test", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command("taw", append([]string{"-L", name, "mcp"}, args...)...)}, nil)
		if err != nil {
			t.Fatalf("connect: %v", err)
		}
		return cs
	}
	toolNames := func(cs *mcp.ClientSession) []string {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			if tool.Description == "" {
				t.Errorf("tool %s says nothing of what it does", tool.Name)
			}
		}
		sort.Strings(names)
		return names
	}
	ro := connect("--read-only")
	if got, want := strings.Join(toolNames(ro), " "), "agent_get agent_list agent_read agent_wait pane_read"; got != want {
		t.Errorf("read-only tools: %s, want %s", got, want)
	}
	ro.Close()

	cs := connect()
	defer cs.Close()
	if got, want := strings.Join(toolNames(cs), " "), "agent_answer agent_get agent_list agent_prompt agent_read agent_start agent_wait pane_read pane_run pane_split"; got != want {
		t.Errorf("tools: %s, want %s", got, want)
	}
	// call runs a tool and decodes its structured answer; a refusal comes back as its text.
	call := func(tool string, args map[string]any, out any) (refused string) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		if res.IsError {
			for _, c := range res.Content {
				if tc, ok := c.(*mcp.TextContent); ok {
					return tc.Text
				}
			}
			return "refused"
		}
		b, _ := json.Marshal(res.StructuredContent)
		if out != nil {
			if err := json.Unmarshal(b, out); err != nil {
				t.Fatalf("%s: %v: %s", tool, err, b)
			}
		}
		return ""
	}
	mustCall := func(tool string, args map[string]any, out any) {
		t.Helper()
		if refused := call(tool, args, out); refused != "" {
			t.Fatalf("%s %v refused: %s", tool, args, refused)
		}
	}
	type text struct {
		PaneID string `json:"pane_id"`
		Text   string `json:"text"`
	}
	readUntil := func(pane, want string) text {
		t.Helper()
		var r text
		deadline := time.Now().Add(20 * time.Second)
		for {
			mustCall("pane_read", map[string]any{"pane": pane, "source": "visible"}, &r)
			if strings.Contains(r.Text, want) && strings.TrimSpace(r.Text) != "" {
				return r
			}
			if time.Now().After(deadline) {
				t.Fatalf("pane %s never showed %q: %q", pane, want, r.Text)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}

	// A split starting an argument vector: the word with a space and a ';' arrives whole.
	var split struct {
		PaneID string `json:"pane_id"`
	}
	mustCall("pane_split", map[string]any{"pane": "s:0.0", "direction": "right", "command": []string{"sh", "-c", `echo "mcp-[$0]"; exec sleep 600`, "a b; $HOME"}}, &split)
	readUntil(split.PaneID, "mcp-[a b; $HOME]")
	if refused := call("pane_split", map[string]any{"pane": "s:0.0", "direction": "right", "cwd": "not/absolute"}, nil); !strings.Contains(refused, "invalid_argument") {
		t.Errorf("a relative cwd: %q", refused)
	}

	// Start an agent in a new window; it is ready (idle) when the call returns.
	var started struct {
		PaneID string `json:"pane_id"`
		Agent  struct {
			Agent, State string
		} `json:"agent"`
	}
	if refused := call("agent_start", map[string]any{"agent": "claude", "cwd": work, "timeout_seconds": 30}, &started); refused != "" {
		out, _ := exec.Command("tmux", "-L", name, "capture-pane", "-p", "-t", "s:1").CombinedOutput()
		t.Fatalf("agent_start: %s\nthe window shows:\n%s", refused, out)
	}
	if started.Agent.Agent != "claude" || (started.Agent.State != "idle" && started.Agent.State != "done") {
		t.Fatalf("started: %+v", started)
	}
	p := started.PaneID
	type agent struct {
		PaneID string `json:"pane_id"`
		Agent  string `json:"agent"`
		State  string `json:"state"`
		Prompt *struct{ Kind, Question string }
	}

	// Prompt it; it goes to work.
	screen("claude.next", "working_spinner")
	mustCall("agent_prompt", map[string]any{"target": p, "text": "fix the tests"}, nil)
	var a agent
	mustCall("agent_wait", map[string]any{"target": p, "until": []string{"working"}, "timeout_seconds": 20}, &a)
	if a.State != "working" {
		t.Fatalf("after the prompt: %+v", a)
	}
	keys, _ := os.ReadFile(filepath.Join(work, "claude.keys"))
	if !strings.Contains(string(keys), "\x1b[200~fix the tests\x1b[201~") {
		t.Errorf("the prompt was not one paste: %q", keys)
	}

	// Blocked on a dialog: a prompt is refused and types nothing; the dialog is answered.
	screen("claude.screen", "blocked_permission-bash")
	mustCall("agent_wait", map[string]any{"target": "claude", "until": []string{"blocked"}, "timeout_seconds": 20}, &a)
	if a.State != "blocked" || a.Prompt == nil || a.Prompt.Kind != "permission" {
		t.Fatalf("blocked: %+v", a)
	}
	before, _ := os.ReadFile(filepath.Join(work, "claude.keys"))
	if refused := call("agent_prompt", map[string]any{"target": "claude", "text": "yes"}, nil); !strings.Contains(refused, "agent_blocked") {
		t.Errorf("a prompt to a blocked agent: %q", refused)
	}
	if after, _ := os.ReadFile(filepath.Join(work, "claude.keys")); string(after) != string(before) {
		t.Errorf("a refused prompt typed %q", after[len(before):])
	}
	screen("claude.next", "working_spinner")
	var answered struct {
		Answered struct {
			Number int    `json:"number"`
			Label  string `json:"label"`
		} `json:"answered"`
		Keys []string `json:"keys"`
	}
	mustCall("agent_answer", map[string]any{"target": "claude", "option": 1}, &answered)
	if answered.Answered.Label != "Yes" || strings.Join(answered.Keys, " ") != "Enter" {
		t.Errorf("answered: %+v", answered)
	}
	mustCall("agent_wait", map[string]any{"target": p, "until": []string{"working"}, "timeout_seconds": 20}, &a)
	if refused := call("agent_answer", map[string]any{"target": p, "yes": true}, nil); !strings.Contains(refused, "agent_not_blocked") {
		t.Errorf("an answer with no dialog: %q", refused)
	}

	// Its screen, and every agent.
	var r text
	mustCall("agent_read", map[string]any{"target": p, "lines": 40}, &r)
	if !strings.Contains(r.Text, "esc to interrupt") {
		t.Errorf("agent_read: %q", r.Text)
	}
	var list struct{ Agents []agent }
	mustCall("agent_list", map[string]any{}, &list)
	if len(list.Agents) != 1 || list.Agents[0].PaneID != p {
		t.Errorf("agent_list: %+v", list)
	}

	// A line run in a shell pane.
	shell := tmux("split-window", "-d", "-P", "-F", "#{pane_id}", "-t", "s:0.0")
	readUntil(shell, "") // its prompt
	mustCall("pane_run", map[string]any{"pane": shell, "command": "echo ran-$((6*7))"}, nil)
	readUntil(shell, "ran-42")
	if refused := call("pane_run", map[string]any{"pane": shell, "command": "echo a\necho b"}, nil); !strings.Contains(refused, "invalid_argument") {
		t.Errorf("a line with a newline: %q", refused)
	}
}
