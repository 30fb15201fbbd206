//go:build liveagents

package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tawagents "github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/shellquote"
	"github.com/taw-tmux/taw/tests/agents/capture"
)

// restoreFlow is what TestLiveRestore needs of one agent besides its flow (flows: environment
// and settings) and its truth flow's start-up steps (truthFlows: the start-up dialogs).
type restoreFlow struct {
	// ready: the agent waits for a message, its prompt drawn with no dialog over it.
	ready string
	// asks and answer, for an agent whose dialogs come in no fixed order and may come again
	// after the first message (Codex): asks matches a screen with one of them, answer answers
	// it and says which, "" for none. Such an agent's truth-flow start steps are not used.
	asks   string
	answer func(r *restoreRun, target, screen string) string
	// trust trusts the folder before the agent starts, in place of the truth flow's start steps.
	trust func(t *testing.T, home, repo string)
	env   []string // besides its flow's
}

// restoreFlows: every pinned agent with a resume command in taw's catalogue that can run a turn
// against the stand-in.
var restoreFlows = map[string]restoreFlow{
	// It starts in auto mode, whose footer says so in place of its shortcuts hint.
	"claude":   {ready: `\? for shortcuts|auto mode on|manual mode on`},
	"codex":    {ready: `\? for shortcuts`, asks: `Trust this folder\?|Hooks need review|t trust all`, answer: answerCodex},
	"gemini":   {ready: `Type your message`, trust: trustGeminiFolder},
	"copilot":  {ready: `Manual Approval`},
	"opencode": {ready: `ctrl\+p commands`},
	// Kilo Code stops a turn to ask whether to turn its snapshots off when one takes over 10 s,
	// as two of it resuming at once on a loaded machine did.
	"kilo": {ready: `ctrl\+p commands`, env: []string{"KILO_SNAPSHOT_TRACK_TIMEOUT_MS=120000"}},
	"pi":   {ready: `standin-model`},
}

// restoreLeftOut: pinned agents with a resume command that this test cannot run, and why.
var restoreLeftOut = map[string]string{
	"droid": "Droid runs no turn without a Factory account: no conversation to resume",
}

// TestLiveRestore: for each agent of restoreFlows, two real panes of it in one session, each in
// a conversation of its own, with taw's integration installed and its watcher running; taw
// session save, the session killed, taw session restore: each pane must be given its own
// session's resume command, show its own conversation (not the other's), be known as the agent
// again and hold its own session. Codex runs every session's hooks from one daemon that keeps the
// first Codex's $TMUX_PANE, so the second pane's reports are placed by their session alone: a
// mix-up there shows here.
func TestLiveRestore(t *testing.T) {
	cache, only, list, root := liveSetup(t)
	bin := buildTaw(t, root)
	for _, a := range list {
		if len(only) > 0 && !only[a.ID] {
			continue
		}
		known, _ := tawagents.Lookup(a.ID)
		rf, ok := restoreFlows[a.ID]
		why, left := restoreLeftOut[a.ID]
		switch {
		case known.Resume == nil:
			continue
		case !ok && !left:
			t.Errorf("%s: it has a resume command but no restore flow in restore_test.go", a.ID)
			continue
		}
		t.Run(a.ID, func(t *testing.T) {
			if left {
				t.Skip(why)
			}
			if err := a.Install(context.Background(), cache); err != nil {
				t.Fatal(err)
			}
			url, _ := serveStandin(t)
			runRestore(t, bin, cache, url, a, rf)
		})
	}
}

// restoreRun is one agent's run: its tmux server and how to drive it.
type restoreRun struct {
	t      *testing.T
	a      Agent
	tm     capture.Tmux
	url    string
	env    []string // taw's: HOME, PATH
	bin    string
	sock   string
	ready  *regexp.Regexp
	flow   restoreFlow
	starts []step
}

func (r *restoreRun) run(args ...string) string {
	r.t.Helper()
	out, err := r.tm.Run(args...)
	if err != nil {
		r.t.Fatal(err)
	}
	return out
}

func (r *restoreRun) taw(args ...string) (string, error) {
	c := exec.Command(filepath.Join(r.bin, "taw"), append([]string{"-L", r.sock}, args...)...)
	c.Env = r.env
	out, err := c.CombinedOutput()
	return string(out), err
}

// until waits up to within for the pane's text to satisfy ok and returns it; the test fails
// when it does not.
func (r *restoreRun) until(target, what string, within time.Duration, ok func(string) bool) string {
	r.t.Helper()
	shot, seen, err := capture.Until(r.tm, target, r.a.ID, within, func(s capture.Shot) bool { return ok(s.Text()) })
	if err != nil || !seen {
		r.t.Fatalf("%s %s: %s not seen within %s (%v); it shows:\n%s", r.a.ID, target, what, within, err, shot.Text())
	}
	return shot.Text()
}

func shows(re string) func(string) bool {
	r := regexp.MustCompile(re)
	return func(s string) bool { return r.MatchString(s) }
}

// typeLine types text and presses Enter.
func (r *restoreRun) typeLine(target, text string) {
	r.t.Helper()
	r.run("send-keys", "-t", target, "-l", text)
	time.Sleep(time.Second) // several agents take an Enter that comes with the text as part of a paste
	r.run("send-keys", "-t", target, "Enter")
}

// sendKeys sends tmux keys as runTruth does.
func (r *restoreRun) sendKeys(target string, keys []string) {
	for _, k := range keys {
		r.run("send-keys", "-t", target, k)
		// An Escape followed at once by another key reads as Alt and that key.
		if k == "Escape" {
			time.Sleep(1500 * time.Millisecond)
		} else {
			time.Sleep(300 * time.Millisecond)
		}
	}
}

// settle answers the agent's start-up dialogs in the pane until it waits for a message, by the
// truth flow's start steps. In the first pane, started in a fresh HOME, every step comes; its
// answers settle them for the second pane and the resumed ones (a trusted folder is not asked
// about again), where the steps are cut short once the agent is ready instead. (The first pane
// cannot be cut short: Gemini CLI draws its prompt a moment before its trust dialog.)
func (r *restoreRun) settle(target string, first bool) {
	r.t.Helper()
	if r.flow.answer != nil {
		for n := 0; ; n++ {
			text := r.until(target, "the agent's first screen", 2*time.Minute, shows(r.flow.asks+`|`+r.flow.ready))
			dialog := r.flow.answer(r, target, text)
			if dialog == "" {
				return
			}
			if n > 4 {
				r.t.Fatalf("%s %s: it keeps asking %q:\n%s", r.a.ID, target, dialog, text)
			}
		}
	}
	for _, s := range r.starts {
		if s.typed != "" {
			r.run("send-keys", "-t", target, "-l", strings.ReplaceAll(s.typed, "{url}", r.url))
			time.Sleep(500 * time.Millisecond)
		}
		time.Sleep(s.pause)
		r.sendKeys(target, s.keys)
		re := regexp.MustCompile(s.wait)
		within := s.within
		if within == 0 {
			within = 90 * time.Second
		}
		shot, ok, err := untilShown(r.tm, target, r.a.ID, s.keys, s.again, within, func(sh capture.Shot) bool {
			text := sh.Text()
			return shownPast(re, s.gone, text) || !first && r.ready.MatchString(text) && !re.MatchString(text)
		})
		if err != nil || !ok {
			r.t.Fatalf("%s %s: start-up screen %q not seen (%v); it shows:\n%s", r.a.ID, target, s.wait, err, shot.Text())
		}
		if !re.MatchString(shot.Text()) {
			return
		}
	}
	r.until(target, "its prompt", 90*time.Second, r.ready.MatchString)
}

// shownPast says whether the screen shows re below the last of what must be gone: Gemini CLI
// restarts once its folder is trusted and draws its new screen under the old dialog, which a
// pane as tall as this test's keeps in view.
func shownPast(re *regexp.Regexp, gone, text string) bool {
	if gone != "" {
		if at := regexp.MustCompile(gone).FindAllStringIndex(text, -1); len(at) > 0 {
			text = text[at[len(at)-1][1]:]
		}
	}
	return re.MatchString(text)
}

// say sends a message and waits for the stand-in's answer below it.
func (r *restoreRun) say(target, message string) {
	r.t.Helper()
	answered := regexp.QuoteMeta(message) + `[\s\S]*Hello from the stand-in model`
	for n := 0; ; n++ {
		r.run("send-keys", "-t", target, "C-u")
		r.typeLine(target, message)
		if r.flow.answer == nil {
			r.until(target, "the answer", 90*time.Second, shows(answered))
			return
		}
		// Codex 0.171 may ask for the folder's trust again once the first message is sent (its
		// "Folder access" page): that is answered and the message sent again.
		text := r.until(target, "the answer", 90*time.Second, shows(answered+`|`+r.flow.asks))
		if regexp.MustCompile(answered).MatchString(text) {
			return
		}
		if n > 3 {
			r.t.Fatalf("%s %s: it keeps asking before it answers:\n%s", r.a.ID, target, text)
		}
		r.flow.answer(r, target, text)
	}
}

// paneSession is what taw holds of the pane's agent: its id, its session's id and file.
type paneSession struct{ agent, id, path string }

func (r *restoreRun) session(target string) (paneSession, string) {
	out, err := r.taw("pane", "get", target, "--json")
	if err != nil {
		return paneSession{}, out
	}
	var view struct {
		Agent *string `json:"agent"`
		ID    *string `json:"agent_session_id"`
		Path  *string `json:"agent_session_path"`
	}
	json.Unmarshal([]byte(out), &view)
	s := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	return paneSession{agent: s(view.Agent), id: s(view.ID), path: s(view.Path)}, out
}

// sessionUntil polls the pane's session until ok holds, for up to within.
func (r *restoreRun) sessionUntil(target string, within time.Duration, ok func(paneSession) bool) (paneSession, string, bool) {
	var s paneSession
	var out string
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if s, out = r.session(target); ok(s) {
			return s, out, true
		}
	}
	return s, out, false
}

func runRestore(t *testing.T, bin, cache, url string, a Agent, rf restoreFlow) {
	f := flows[a.ID]
	home, repo, path := agentHome(t, bin, cache, url, a, "restore-"+a.ID, rf.trust)
	env := []string{"HOME=" + home, "PATH=" + path}
	if dir := os.Getenv("TMUX_TMPDIR"); dir != "" {
		env = append(env, "TMUX_TMPDIR="+dir)
	}
	sock := fmt.Sprintf("taw-restore-%d-%s", os.Getpid(), a.ID)
	r := &restoreRun{t: t, a: a, tm: capture.Tmux{Socket: sock}, url: url, env: env, bin: bin, sock: sock,
		ready: regexp.MustCompile(rf.ready), flow: rf, starts: truthFlows[a.ID].start}
	if rf.trust != nil {
		r.starts = nil // no trust dialog comes
	}

	// A session to hold the server's settings while the one under test is killed and restored.
	r.run("new-session", "-d", "-s", "base", "-x", "200", "-y", "50", "-c", repo)
	t.Cleanup(func() { r.tm.Run("kill-server") })
	// The panes' shells, the restored ones too, get the agent's environment and a plain sh,
	// whose profile does not reset PATH.
	agentEnv := append(append([]string(nil), env...), "TERM=xterm-256color", "LANG=C.UTF-8")
	if f.env != nil {
		agentEnv = append(agentEnv, f.env(home, url)...)
	}
	agentEnv = append(agentEnv, rf.env...)
	for _, kv := range agentEnv {
		k, v, _ := strings.Cut(kv, "=")
		r.run("set-environment", "-g", k, v)
	}
	r.run("set-option", "-g", "default-command", "exec /bin/sh")
	r.run("run-shell", "-b", filepath.Join(bin, "taw")+" -L "+sock+" watch --serve >/dev/null 2>&1")
	// tmux gives a pane made by a client outside any session that client's PATH, over the
	// global one and over new-session -e: the test's own tmux calls carry the agents' PATH.
	t.Setenv("PATH", path+":"+os.Getenv("PATH"))
	r.run("new-session", "-d", "-s", "work", "-x", "200", "-y", "50", "-c", repo)
	r.run("split-window", "-h", "-t", "work:0", "-c", repo)
	names := map[string]string{"work:0.0": "ALPHA", "work:0.1": "BRAVO"}
	order := []string{"work:0.0", "work:0.1"}

	// The agent, typed at each pane's shell prompt as a person would, and a message of each
	// pane's own.
	program := filepath.Base(a.Command(cache)[0])
	for _, target := range order {
		r.until(target, "the shell's prompt", 30*time.Second, shows(`(?m)^[$#] ?$`))
		r.typeLine(target, program)
		r.settle(target, target == order[0])
		r.say(target, "say hello to "+names[target])
	}

	// Each pane holds a session of its own, reported by taw's integration.
	saved := map[string]paneSession{}
	for _, target := range order {
		s, out, ok := r.sessionUntil(target, 30*time.Second, func(s paneSession) bool { return s.id != "" || s.path != "" })
		if !ok || s.agent != a.ID {
			why, _ := r.taw("pane", "explain", target)
			screen, _ := r.tm.Run("capture-pane", "-p", "-t", target)
			t.Fatalf("%s: taw holds no %s session for it: %s\ntaw pane explain:\n%s\nthe screen:\n%s", target, a.ID, out, why, screen)
		}
		saved[target] = s
	}
	if saved[order[0]] == saved[order[1]] {
		t.Fatalf("both panes hold the same session %+v", saved[order[0]])
	}
	t.Logf("sessions before the save: %+v", saved)

	began := time.Now()
	out, err := r.taw("session", "save", "--name", "two-"+a.ID, "--json")
	if err != nil || !strings.Contains(out, `"agents":2`) {
		t.Fatalf("taw session save: %v: %s", err, out)
	}
	r.run("kill-session", "-t", "work")
	out, err = r.taw("session", "restore", "--name", "two-"+a.ID, "--wait", "60s", "--json")
	if err != nil {
		t.Fatalf("taw session restore: %v: %s", err, out)
	}
	t.Logf("restore, %.1fs after the save began: %s", time.Since(began).Seconds(), strings.TrimSpace(out))
	var restored struct {
		Resumed []struct {
			Target  string `json:"target"`
			Command string `json:"command"`
		} `json:"resumed"`
	}
	if err := json.Unmarshal([]byte(out), &restored); err != nil {
		t.Fatalf("taw session restore: %v: %s", err, out)
	}
	typed := map[string]string{}
	for _, res := range restored.Resumed {
		typed[res.Target] = res.Command
	}
	// The catalogue's command for the pane's own session; a command the agent reported may
	// carry options after it (Claude Code's model).
	known, _ := tawagents.Lookup(a.ID)
	for _, target := range order {
		want := shellquote.Line(shellquote.POSIX, known.Resume.Argv(saved[target].id, saved[target].path))
		if got := typed[target]; got != want && !strings.HasPrefix(got, want+" ") {
			t.Errorf("%s: the restore typed %q, want %q", target, got, want)
		}
	}

	// Each restored agent shows its own conversation and not the other's, is known as the agent
	// again and holds its own session.
	for _, target := range order {
		own, other := names[target], names[order[0]]
		if other == own {
			other = names[order[1]]
		}
		r.settle(target, false)
		text := r.until(target, "its own conversation", 3*time.Minute, shows(`say hello to `+own+`[\s\S]*(`+rf.ready+`)`))
		t.Logf("%s resumed, %.1fs after the save began; its screen's last lines:\n%s", target, time.Since(began).Seconds(), lastLines(text, 10))
		if strings.Contains(text, "say hello to "+other) {
			t.Errorf("%s resumed the other pane's conversation:\n%s", target, text)
		}
		want := saved[target]
		if s, out, ok := r.sessionUntil(target, 30*time.Second, func(s paneSession) bool { return s == want }); !ok {
			t.Errorf("%s: taw holds %+v after the restore, want %+v: %s", target, s, want, out)
		}
	}
	t.Logf("%s: saved, restored and both conversations back in %.1fs", a.ID, time.Since(began).Seconds())

	// Each conversation goes on where it was: the resumed agent's own reports keep its session
	// (a resume that forked a new one would show here).
	for _, target := range order {
		r.say(target, "say hello again to "+names[target])
		want := saved[target]
		if s, out, ok := r.sessionUntil(target, 30*time.Second, func(s paneSession) bool { return s == want }); !ok {
			t.Errorf("%s: taw holds %+v after a turn in the resumed conversation, want %+v: %s", target, s, want, out)
		}
	}
}

// answerCodex answers the Codex dialog the screen shows, if any: the folder's trust and the
// review of taw's hooks. It says which it answered, "" for none.
func answerCodex(r *restoreRun, target, text string) string {
	var dialog string
	prompt := func(s capture.Shot) bool { return strings.Contains(s.Text(), "? for shortcuts") }
	switch {
	case strings.Contains(text, "Trust this folder?"):
		// An Enter that comes while the page is drawn is dropped (under load): it goes again
		// while the page stays.
		dialog = "Trust this folder?"
		for n := 0; n < 5; n++ {
			r.run("send-keys", "-t", target, "Enter")
			if _, ok, _ := capture.Until(r.tm, target, "codex", 5*time.Second, func(s capture.Shot) bool { return !strings.Contains(s.Text(), dialog) }); ok {
				break
			}
		}
	case strings.Contains(text, "t trust all"):
		// Its hooks page, where the review leads: trust them all, then close it.
		dialog = "t trust all"
		r.run("send-keys", "-t", target, "t")
		// The page says so once they are trusted; how, this test does not assume.
		capture.Until(r.tm, target, "codex", 5*time.Second, func(s capture.Shot) bool { return !strings.Contains(s.Text(), "need review") })
		for n := 0; n < 3; n++ {
			r.run("send-keys", "-t", target, "Escape")
			if _, ok, _ := capture.Until(r.tm, target, "codex", 3*time.Second, prompt); ok {
				break
			}
		}
	case strings.Contains(text, "Hooks need review"):
		// "2. Trust all and continue"; a Down that comes while the dialog is drawn is dropped,
		// and Enter would then open the review.
		dialog = "Hooks need review"
		for n := 0; n < 5; n++ {
			r.run("send-keys", "-t", target, "Down")
			if _, ok, _ := capture.Until(r.tm, target, "codex", 2*time.Second, func(s capture.Shot) bool { return strings.Contains(s.Text(), "› 2. Trust all") }); ok {
				break
			}
		}
		r.run("send-keys", "-t", target, "Enter")
	default:
		return ""
	}
	r.until(target, dialog+" answered", 30*time.Second, func(s string) bool { return !strings.Contains(s, dialog) })
	return dialog
}
