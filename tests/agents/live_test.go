//go:build liveagents

package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/taw-tmux/taw/tests/agents/capture"
	"github.com/taw-tmux/taw/tests/agents/standin"
)

// The live suite: make test-agents. TAW_AGENTS_CACHE is the install folder (the Makefile passes
// one inside the user's cache); TAW_AGENTS=claude,codex runs some; TAW_RECORD=1 writes every
// screen reached as a fixture in helper/detect/testdata.

// step is one screen of a flow: send keys (or type text and press Enter), wait until the pane
// shows the pattern, then taw's verdict must be want.
type step struct {
	screen string   // the fixture's name for this screen
	text   string   // typed literally, then Enter
	typed  string   // typed literally, no Enter (a form field); {url} is the stand-in's address
	keys   []string // tmux key names, sent after text
	wait   string   // regular expression over the pane's text
	gone   string   // and, when set, one that must no longer match (a dialog still drawn)
	want   string   // idle, working or blocked; "" to only wait
	within time.Duration
	// pause: a person's time to read the screen before the keys go (Claude Code 2.1.3xx drops
	// a key that reaches a question within ~300ms of it being drawn).
	pause time.Duration
	// again: the keys are sent again every few seconds until the screen shows wait, for a key
	// that moves a cursor and that an agent drops while it is not yet reading input.
	again bool
}

// untilShown waits up to within for the pane to satisfy ok; with again, it sends keys again
// every 3 seconds meanwhile.
func untilShown(tm capture.Tmux, target, agent string, keys []string, again bool, within time.Duration, ok func(capture.Shot) bool) (capture.Shot, bool, error) {
	if !again {
		return capture.Until(tm, target, agent, within, ok)
	}
	deadline := time.Now().Add(within)
	for {
		shot, seen, err := capture.Until(tm, target, agent, min(3*time.Second, time.Until(deadline)), ok)
		if err != nil || seen || time.Now().After(deadline) {
			return shot, seen, err
		}
		for _, k := range keys {
			if _, err := tm.Run("send-keys", "-t", target, k); err != nil {
				return shot, false, err
			}
			time.Sleep(300 * time.Millisecond)
		}
	}
}

// flow is how one agent is set up and driven.
type flow struct {
	env   func(home, url string) []string      // the agent's environment besides HOME, TERM, PATH
	setup func(t *testing.T, home, url string) // files in its HOME before it starts
	steps []step
}

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// liveSetup is what every live test starts from: the suite's cache folder, the agents asked for
// (TAW_AGENTS, every pinned one when empty), the pinned agents and the repository's root.
func liveSetup(t *testing.T) (cache string, only map[string]bool, list []Agent, root string) {
	t.Helper()
	cache = os.Getenv("TAW_AGENTS_CACHE")
	if cache == "" {
		t.Fatal("TAW_AGENTS_CACHE is not set: run make test-agents, which gives the suite a cache folder")
	}
	only = map[string]bool{}
	for _, id := range strings.Split(os.Getenv("TAW_AGENTS"), ",") {
		if id != "" {
			only[id] = true
		}
	}
	var err error
	list, err = Pinned()
	if err != nil {
		t.Fatal(err)
	}
	root, err = filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return cache, only, list, root
}

func TestLiveAgents(t *testing.T) {
	cache, only, list, root := liveSetup(t)
	for _, a := range list {
		if len(only) > 0 && !only[a.ID] {
			continue
		}
		f, ok := flows[a.ID]
		if !ok {
			t.Errorf("%s: pinned but has no flow in live_test.go", a.ID)
			continue
		}
		// One agent at a time: they are heavy, and the machine may be shared.
		t.Run(a.ID, func(t *testing.T) {
			if err := a.Install(context.Background(), cache); err != nil {
				t.Fatal(err)
			}
			url, _ := serveStandin(t)
			runFlow(t, root, cache, url, a, f)
		})
	}
}

// pinnedAgent is the pinned agent id, installed in cache, for a test that drives that one agent
// (its name, for the messages); it skips the test when TAW_AGENTS leaves the agent out.
func pinnedAgent(t *testing.T, cache string, only map[string]bool, list []Agent, id, name string) Agent {
	t.Helper()
	if len(only) > 0 && !only[id] {
		t.Skipf("TAW_AGENTS leaves %s out; this test drives it", name)
	}
	for _, a := range list {
		if a.ID == id {
			if err := a.Install(context.Background(), cache); err != nil {
				t.Fatal(err)
			}
			return a
		}
	}
	t.Fatalf("%s is not pinned in agents.json", name)
	return Agent{}
}

// serveStandin starts a stand-in model server of the agent's own and returns its address and the
// server, which knows what the model was told. Each agent gets a fresh one: the stand-in
// remembers which messages it answered with a tool call, and one agent's "run a TOOL" must not
// make another's read as already answered.
func serveStandin(t *testing.T) (string, *standin.Server) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	logf, err := os.Create(filepath.Join(t.TempDir(), "standin.log"))
	if err != nil {
		t.Fatal(err)
	}
	model := &standin.Server{Log: logf}
	srv := &http.Server{Handler: model}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String(), model
}

func runFlow(t *testing.T, root, cache, url string, a Agent, f flow) {
	_, home, repo := scratchRepo(t, cache, "run-"+a.ID)
	if f.setup != nil {
		f.setup(t, home, url)
	}
	env := []string{"HOME=" + home, "TERM=xterm-256color", "LANG=C.UTF-8", "PATH=/usr/local/bin:/usr/bin:/bin"}
	if f.env != nil {
		env = append(env, f.env(home, url)...)
	}
	// The agent's own program, by absolute path, in a clean environment; the pane outlives it
	// so that its last screen can still be read.
	cmd := "env -i " + shellWords(append(env, a.Command(cache)...)) + "; sleep 600"
	sock := fmt.Sprintf("taw-live-%d-%s", os.Getpid(), a.ID)
	tm := capture.Tmux{Socket: sock}
	if _, err := tm.Run("new-session", "-d", "-s", "live", "-x", "120", "-y", "40", "-c", repo, cmd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tm.Run("kill-server") })
	target := "live:0.0"
	fixtures := filepath.Join(root, "helper", "detect", "testdata", a.ID)
	for _, s := range f.steps {
		if s.text != "" {
			if _, err := tm.Run("send-keys", "-t", target, "-l", s.text); err != nil {
				t.Fatal(err)
			}
			// Several agents take keys that arrive with the text as a paste, Enter included.
			time.Sleep(time.Second)
			s.keys = append([]string{"Enter"}, s.keys...)
		}
		if s.typed != "" {
			if _, err := tm.Run("send-keys", "-t", target, "-l", strings.ReplaceAll(s.typed, "{url}", url)); err != nil {
				t.Fatal(err)
			}
			time.Sleep(500 * time.Millisecond)
		}
		time.Sleep(s.pause)
		for _, k := range s.keys {
			if _, err := tm.Run("send-keys", "-t", target, k); err != nil {
				t.Fatal(err)
			}
			// An Escape followed at once by another key reads as Alt and that key.
			if k == "Escape" {
				time.Sleep(1500 * time.Millisecond)
			} else {
				time.Sleep(300 * time.Millisecond)
			}
		}
		within := s.within
		if within == 0 {
			within = 90 * time.Second
		}
		re := regexp.MustCompile(s.wait)
		var gone *regexp.Regexp
		if s.gone != "" {
			gone = regexp.MustCompile(s.gone)
		}
		shot, ok, err := untilShown(tm, target, a.ID, s.keys, s.again, within, func(sh capture.Shot) bool {
			return re.MatchString(sh.Text()) && (gone == nil || !gone.MatchString(sh.Text()))
		})
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			t.Fatalf("%s: the screen %q did not show %q within %s; it shows:\n%s", a.ID, s.screen, s.wait, within, shot.Text())
		}
		if s.want == "" {
			continue
		}
		if shot.Verdict.State != s.want {
			t.Errorf("%s %s: taw reads %s (rule %s, %q), want %s; screen:\n%s", a.ID, s.screen, shot.Verdict.State,
				shot.Verdict.RuleID, shot.Verdict.Evidence, s.want, shot.Text())
		}
		if os.Getenv("TAW_RECORD") != "" {
			p, err := capture.Write(fixtures, a.Version, s.screen, s.want, shot)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("recorded %s", p)
		}
	}
}

// scratchRepo makes a run's scratch folder in the cache (rather than /tmp: Codex refuses to keep
// helper programs under /tmp), removed with what the agents left running there when the test
// ends: an empty HOME and a git repository of one commit to start the agents in.
func scratchRepo(t *testing.T, cache, name string) (scratch, home, repo string) {
	t.Helper()
	scratch, err := os.MkdirTemp(cache, name+"-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stopStrays(t, scratch)
		os.RemoveAll(scratch)
	})
	home, repo = filepath.Join(scratch, "home"), filepath.Join(scratch, "repo")
	write(t, filepath.Join(repo, "README.md"), "# scratch\n")
	git := exec.Command("sh", "-c", "git init -q . && git add . && git -c user.email=live@example.invalid -c user.name=live commit -qm init")
	git.Dir = repo
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git: %v: %s", err, out)
	}
	return scratch, home, repo
}

// buildTaw builds the helper from the repository at root into a folder of the test's.
func buildTaw(t *testing.T, root string) (bin string) {
	t.Helper()
	bin = t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "taw"), "./helper")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v: %s", err, out)
	}
	return bin
}

// shellWords quotes each word for sh.
func shellWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// stopStrays ends the processes an agent left behind in its scratch folder: Codex's app-server
// daemon and Cline's hub daemon outlive the pane. Only processes whose command line names the
// scratch folder, which this run made, are signalled, each by its pid.
func stopStrays(t *testing.T, scratch string) {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), scratch) {
			continue
		}
		var pid int
		if _, err := fmt.Sscanf(filepath.Base(filepath.Dir(p)), "%d", &pid); err != nil || pid == os.Getpid() {
			continue
		}
		if proc, err := os.FindProcess(pid); err == nil {
			t.Logf("stopping %d, left behind: %.120s", pid, strings.ReplaceAll(string(b), "\x00", " "))
			proc.Kill()
		}
	}
}

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
	url, _ := serveStandin(t)
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
	// tmux gives a pane made by a client outside any session that client's PATH, over the
	// global one and over new-session -e: the test's own tmux calls carry the agents' PATH.
	t.Setenv("PATH", path+":"+os.Getenv("PATH"))
	run("new-session", "-d", "-s", "work", "-x", "200", "-y", "50", "-c", repo)
	run("split-window", "-h", "-t", "work:0", "-c", repo)
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
	prompt := `\? for shortcuts` // the composer's footer
	// answerDialog answers the start-up dialog the screen shows, if any: the folder's trust and
	// the review of taw's hooks. It says which it answered, "" for none.
	answerDialog := func(target, text string) string {
		var dialog string
		switch {
		case strings.Contains(text, "Trust this folder?"):
			dialog = "Trust this folder?"
			run("send-keys", "-t", target, "Enter")
		case strings.Contains(text, "t trust all"):
			// Its hooks page, where the review leads: trust them all, then close it.
			dialog = "t trust all"
			run("send-keys", "-t", target, "t")
			// The page says so once they are trusted; how, this test does not assume.
			capture.Until(tm, target, "codex", 5*time.Second, func(s capture.Shot) bool { return !strings.Contains(s.Text(), "need review") })
			for n := 0; n < 3; n++ {
				run("send-keys", "-t", target, "Escape")
				if _, ok, _ := capture.Until(tm, target, "codex", 3*time.Second, func(s capture.Shot) bool { return strings.Contains(s.Text(), "? for shortcuts") }); ok {
					break
				}
			}
		case strings.Contains(text, "Hooks need review"):
			// "2. Trust all and continue"; a Down that comes while the dialog is drawn is
			// dropped, and Enter would then open the review.
			dialog = "Hooks need review"
			for n := 0; n < 5; n++ {
				run("send-keys", "-t", target, "Down")
				if _, ok, _ := capture.Until(tm, target, "codex", 2*time.Second, func(s capture.Shot) bool { return strings.Contains(s.Text(), "› 2. Trust all") }); ok {
					break
				}
			}
			run("send-keys", "-t", target, "Enter")
		default:
			return ""
		}
		until(target, dialog+" answered", 30*time.Second, func(s string) bool { return !strings.Contains(s, dialog) })
		return dialog
	}
	// Codex, typed at each pane's shell prompt; the first asks to trust the folder and taw's
	// hooks, which settles both for the second. Codex 0.171 may ask for the folder's trust
	// again once the first message is sent (its "Folder access" page): that is answered and
	// the message sent again.
	for _, target := range order {
		until(target, "the shell's prompt", 30*time.Second, shows(`(?m)^[$#] ?$`))
		typeLine(target, "codex")
		for n := 0; ; n++ {
			text := until(target, "Codex's first screen", 2*time.Minute, shows(`Trust this folder\?|Hooks need review|t trust all|`+prompt))
			dialog := answerDialog(target, text)
			if dialog == "" {
				break
			}
			if n > 4 {
				t.Fatalf("%s: Codex keeps asking %q:\n%s", target, dialog, text)
			}
		}
		for n := 0; ; n++ {
			run("send-keys", "-t", target, "C-u")
			typeLine(target, "say hello to "+panes[target])
			text := until(target, "the answer", 90*time.Second, shows(`Hello from the stand-in model|Trust this folder\?|Hooks need review|t trust all`))
			if strings.Contains(text, "Hello from the stand-in model") {
				break
			}
			if n > 3 {
				t.Fatalf("%s: Codex keeps asking before it answers:\n%s", target, text)
			}
			answerDialog(target, text)
		}
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
