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

	"github.com/taw-tmux/taw/tests/agents/capture"
)

// TestLiveRestore: two real Codex panes in one session, each in a conversation of its own, with
// taw's integration installed and its watcher running; taw session save, the session killed,
// taw session restore: each pane must resume its own conversation (its own session id, its own
// prompt on its screen), not the other's. Codex runs every session's hooks from one daemon that
// keeps the first Codex's $TMUX_PANE, so the second pane's reports are placed by their session
// alone: a mix-up there shows here.
func TestLiveRestore(t *testing.T) {
	cache, only, list, root := liveSetup(t)
	a := pinnedAgent(t, cache, only, list, "codex", "Codex")
	bin := buildTaw(t, root)
	url := serveStandin(t)
	_, home, repo := scratchRepo(t, cache, "restore-codex")
	flows["codex"].setup(t, home, url)
	// The flows' hooks file only made the hooks dialog come up: taw's install makes its own.
	os.Remove(filepath.Join(home, ".codex", "hooks.json"))
	path := bin + ":" + filepath.Dir(a.Command(cache)[0]) + ":/usr/local/bin:/usr/bin:/bin"
	tawEnv := []string{"HOME=" + home, "PATH=" + path}
	if dir := os.Getenv("TMUX_TMPDIR"); dir != "" {
		tawEnv = append(tawEnv, "TMUX_TMPDIR="+dir)
	}
	install := exec.Command(filepath.Join(bin, "taw"), "integration", "install", "codex", "--yes")
	install.Env = tawEnv
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("taw integration install codex: %v: %s", err, out)
	}

	sock := fmt.Sprintf("taw-restore-%d", os.Getpid())
	tm := capture.Tmux{Socket: sock}
	run := func(args ...string) string {
		t.Helper()
		out, err := tm.Run(args...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	taw := func(args ...string) (string, error) {
		c := exec.Command(filepath.Join(bin, "taw"), append([]string{"-L", sock}, args...)...)
		c.Env = tawEnv
		out, err := c.CombinedOutput()
		return string(out), err
	}
	// A session to hold the server's settings while the one under test is killed and restored.
	run("new-session", "-d", "-s", "base", "-x", "200", "-y", "50", "-c", repo)
	t.Cleanup(func() { tm.Run("kill-server") })
	// The panes' shells, the restored ones too, get the agent's environment and a plain sh,
	// whose profile does not reset PATH.
	for _, kv := range append(tawEnv, "TERM=xterm-256color", "LANG=C.UTF-8", "STANDIN_API_KEY=sk-standin") {
		k, v, _ := strings.Cut(kv, "=")
		run("set-environment", "-g", k, v)
	}
	run("set-option", "-g", "default-command", "exec /bin/sh")
	run("run-shell", "-b", filepath.Join(bin, "taw")+" -L "+sock+" watch --serve >/dev/null 2>&1")
	// tmux gives a pane made by a client outside any session that client's PATH, not the
	// global one.
	run("new-session", "-d", "-s", "work", "-x", "200", "-y", "50", "-c", repo, "-e", "PATH="+path)
	run("split-window", "-h", "-t", "work:0", "-c", repo, "-e", "PATH="+path)
	panes := map[string]string{"work:0.0": "ALPHA", "work:0.1": "BRAVO"}
	order := []string{"work:0.0", "work:0.1"}

	until := func(target, what string, within time.Duration, ok func(string) bool) string {
		t.Helper()
		shot, seen, err := capture.Until(tm, target, "codex", within, func(s capture.Shot) bool { return ok(s.Text()) })
		if err != nil || !seen {
			t.Fatalf("%s: %s not seen within %s (%v); it shows:\n%s", target, what, within, err, shot.Text())
		}
		return shot.Text()
	}
	shows := func(re string) func(string) bool {
		r := regexp.MustCompile(re)
		return func(s string) bool { return r.MatchString(s) }
	}
	typeLine := func(target, text string) {
		t.Helper()
		run("send-keys", "-t", target, "-l", text)
		time.Sleep(time.Second) // Codex takes an Enter that comes with the text as part of a paste
		run("send-keys", "-t", target, "Enter")
	}
	prompt := `(?m)^› `
	// Codex, typed at each pane's shell prompt; the first asks to trust the folder and taw's
	// hooks, which settles both for the second.
	for _, target := range order {
		until(target, "the shell's prompt", 30*time.Second, shows(`(?m)^[$#] ?$`))
		typeLine(target, "codex")
		for n := 0; ; n++ {
			text := until(target, "Codex's first screen", 2*time.Minute, shows(`Trust this folder\?|Hooks need review|`+prompt))
			var dialog string
			switch {
			case strings.Contains(text, "Trust this folder?"):
				dialog = "Trust this folder?"
				run("send-keys", "-t", target, "Enter")
			case strings.Contains(text, "Hooks need review"):
				dialog = "Hooks need review"
				run("send-keys", "-t", target, "Down")
				time.Sleep(300 * time.Millisecond)
				run("send-keys", "-t", target, "Enter")
			}
			if dialog == "" {
				break
			}
			if n > 4 {
				t.Fatalf("%s: Codex keeps asking %q:\n%s", target, dialog, text)
			}
			until(target, dialog+" answered", 30*time.Second, func(s string) bool { return !strings.Contains(s, dialog) })
		}
		typeLine(target, "say hello to "+panes[target])
		until(target, "the answer", 90*time.Second, shows(`Hello from the stand-in model`))
	}

	// Each pane holds a Codex session of its own, reported by the hooks.
	sessionOf := func(target string) (id string, view map[string]any) {
		out, err := taw("pane", "get", target, "--json")
		if err != nil {
			return "", nil
		}
		json.Unmarshal([]byte(out), &view)
		id, _ = view["agent_session_id"].(string)
		return id, view
	}
	saved := map[string]string{}
	for _, target := range order {
		var view map[string]any
		for deadline := time.Now().Add(30 * time.Second); saved[target] == "" && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			saved[target], view = sessionOf(target)
		}
		if saved[target] == "" {
			t.Fatalf("%s: taw holds no Codex session for it: %v", target, view)
		}
	}
	if saved["work:0.0"] == saved["work:0.1"] {
		t.Fatalf("both panes hold the same Codex session %s", saved["work:0.0"])
	}
	t.Logf("sessions before the save: %v", saved)

	out, err := taw("session", "save", "--name", "two-codex", "--json")
	if err != nil || !strings.Contains(out, `"agents":2`) {
		t.Fatalf("taw session save: %v: %s", err, out)
	}
	run("kill-session", "-t", "work")
	out, err = taw("session", "restore", "--name", "two-codex", "--wait", "60s", "--json")
	if err != nil {
		t.Fatalf("taw session restore: %v: %s", err, out)
	}
	t.Logf("restore: %s", strings.TrimSpace(out))
	var restored struct {
		Resumed []struct {
			Target  string `json:"target"`
			Agent   string `json:"agent"`
			Command string `json:"command"`
		} `json:"resumed"`
	}
	if err := json.Unmarshal([]byte(out), &restored); err != nil {
		t.Fatalf("taw session restore: %v: %s", err, out)
	}
	typed := map[string]string{}
	for _, r := range restored.Resumed {
		typed[r.Target] = r.Command
	}
	for _, target := range order {
		if want := "codex resume " + saved[target]; typed[target] != want {
			t.Errorf("%s: the restore typed %q, want %q", target, typed[target], want)
		}
	}

	// Each restored Codex shows its own conversation and not the other's, and holds its own
	// session again.
	for _, target := range order {
		own, other := panes[target], panes[order[0]]
		if other == own {
			other = panes[order[1]]
		}
		text := until(target, "its own conversation", 2*time.Minute, shows(`say hello to `+own+`[\s\S]*`+prompt))
		if strings.Contains(text, "say hello to "+other) {
			t.Errorf("%s resumed the other pane's conversation:\n%s", target, text)
		}
		var id string
		var view map[string]any
		for deadline := time.Now().Add(30 * time.Second); id != saved[target] && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			id, view = sessionOf(target)
		}
		if id != saved[target] {
			t.Errorf("%s: taw holds session %q after the restore, want its own %s: %v", target, id, saved[target], view)
		}
	}
}
