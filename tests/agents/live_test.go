//go:build liveagents

package agents

import (
	"context"
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

	tawagents "github.com/taw-tmux/taw/helper/agents"
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

// agentHome is the scratch HOME and repository of one agent's run, the PATH its pane gets, and
// taw's integration installed there when taw has one: the flow's settings written, the folder's
// trust settled when trust is set.
func agentHome(t *testing.T, bin, cache, url string, a Agent, name string, trust func(t *testing.T, home, repo string)) (home, repo, path string) {
	t.Helper()
	_, home, repo = scratchRepo(t, cache, name)
	if f := flows[a.ID]; f.setup != nil {
		f.setup(t, home, url)
	}
	if trust != nil {
		trust(t, home, repo)
	}
	// The flows' own Codex hooks file only made the hooks dialog come up: taw's install makes
	// its own.
	os.Remove(filepath.Join(home, ".codex", "hooks.json"))
	path = bin + ":" + filepath.Dir(a.Command(cache)[0]) + ":/usr/local/bin:/usr/bin:/bin"
	// An agent taw ships no integration for (Qwen Code, Cline) is read off its screen alone.
	if known, ok := tawagents.Lookup(a.ID); !ok || !known.Integration {
		t.Logf("%s: taw has no integration for it: the truth comes from its screen alone", a.ID)
		return home, repo, path
	}
	install := exec.Command(filepath.Join(bin, "taw"), "integration", "install", a.ID, "--yes")
	install.Env = []string{"HOME=" + home, "PATH=" + path}
	out, err := install.CombinedOutput()
	if err != nil {
		t.Fatalf("taw integration install %s: %v: %s", a.ID, err, out)
	}
	t.Logf("taw integration install %s: %s", a.ID, strings.TrimSpace(string(out)))
	return home, repo, path
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
