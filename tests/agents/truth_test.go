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

	"github.com/taw-tmux/taw/tests/agents/capture"
	"github.com/taw-tmux/taw/tests/agents/standin"
)

// The live transitions: each agent with taw's integration installed in its own HOME and taw's
// watcher running, driven through what a person does; after each keystroke, `taw pane get` must
// show the truth, and the time it took is logged (time to truth). make test-agents runs it with
// TestLiveAgents; TAW_AGENTS picks agents.

// transition is one thing a person does and what taw must then show.
type transition struct {
	name  string
	setup []string // keys sent before the timed action, not timed (a cleared input)
	text  string   // typed, then Enter (timed from the Enter)
	keys  []string // tmux keys (timed from the first)
	taw   []string // a taw command run instead (timed from its start), {pane} is the pane
	want  func(p paneView) bool
	what  string // the truth wanted, for the table
	stays bool   // the state held before may be the answer (a form's next question)
	// shown, when set, is what the screen must show for the state wanted to be the answer, and
	// then the state held before may be it: a screen-only agent's spell of work shorter than a
	// look (an API error answered at once) leaves the state it had.
	shown string
	pause time.Duration // a person's time to see the last change before acting
	heard string        // what the model must have received in a tool's result by then (a typed answer)
}

// paneView is what `taw pane get --json` says of the agent.
type paneView struct {
	Agent    *string `json:"agent"`
	State    *string `json:"state"`
	Message  *string `json:"message"`
	Done     bool    `json:"done"`
	Since    *int64  `json:"state_since"`
	Detected *string `json:"detected"`
}

func (p paneView) String() string {
	s := func(v *string) string {
		if v == nil {
			return "null"
		}
		return *v
	}
	return fmt.Sprintf("agent=%s state=%s done=%v message=%q detected=%s", s(p.Agent), s(p.State), p.Done, s(p.Message), s(p.Detected))
}

func stateIs(states ...string) func(paneView) bool {
	return func(p paneView) bool {
		for _, s := range states {
			if p.State != nil && *p.State == s {
				return true
			}
		}
		return false
	}
}

func blockedOn(words string) func(paneView) bool {
	return func(p paneView) bool {
		return stateIs("blocked")(p) && p.Message != nil && strings.Contains(*p.Message, words)
	}
}

func released(p paneView) bool { return p.Agent == nil }

// truthFlow is one agent's: the start-up dialogs (untimed, as in flows), then the transitions.
type truthFlow struct {
	trust func(t *testing.T, home, repo string) // settles the folder's trust before the agent starts
	start []step
	steps []transition
}

// trustGeminiFolder trusts repo in Gemini CLI's own file. Gemini CLI 0.61.0 restarts itself once
// its folder is trusted through its dialog, and now and then (2 runs in 10, and 1 in 3 with the
// Enter sent the moment the dialog was drawn) the restarted CLI came up with its notice of an
// untrusted folder and its hooks off for the session. TestLiveAgents checks the dialog itself.
func trustGeminiFolder(t *testing.T, home, repo string) {
	write(t, filepath.Join(home, ".gemini", "trustedFolders.json"), `{"`+repo+`": "TRUST_FOLDER"}`)
}

// truthFlows: the start-up dialogs (untimed, as in flows), then the transitions.
var truthFlows = map[string]truthFlow{
	"claude": {
		start: []step{
			{wait: `Yes, I trust this folder`},
			{keys: []string{"Down"}, again: true, wait: `❯ Yes, I trust this folder`},
			{keys: []string{"Enter"}, wait: `Do you want to use this API key\?`},
			{keys: []string{"Up", "Enter"}, wait: `auto mode on`},
			// Manual mode, where a tool call asks first.
			{keys: []string{"BTab"}, wait: `manual mode on`},
		},
		steps: []transition{
			{name: "prompt → working", text: "answer SLOW", want: stateIs("working"), what: "working"},
			{name: "Esc → idle", keys: []string{"Escape"}, want: stateIs("idle", "done"), what: "idle"},
			{name: "permission → blocked naming the command", setup: []string{"C-u"}, text: "run a LONG TOOL", want: blockedOn("sleep 12"), what: "blocked: sleep 12"},
			{name: "allow (agent answer --yes) → working", taw: []string{"agent", "answer", "{pane}", "--yes"}, want: stateIs("working"), what: "working"},
			{name: "turn ends unseen → done", want: func(p paneView) bool { return p.Done }, what: "done"},
			{name: "permission → blocked (again)", text: "run a TOOL", want: blockedOn("echo probe"), what: "blocked: echo probe"},
			{name: "deny (agent answer --no) → idle", taw: []string{"agent", "answer", "{pane}", "--no"}, want: stateIs("idle", "done"), what: "idle"},
			{name: "question → blocked", setup: []string{"C-u"}, text: "ASK me", want: stateIs("blocked"), what: "blocked"},
			{name: "answer --option 1 → went on", taw: []string{"agent", "answer", "{pane}", "--option", "1"}, want: stateIs("working", "idle", "done"), what: "not blocked"},
			{name: "question → blocked (text)", setup: []string{"C-u"}, text: "ASK me again", want: stateIs("blocked"), what: "blocked"},
			{name: "answer --text → went on", taw: []string{"agent", "answer", "{pane}", "--text", "dark blue"}, want: stateIs("working", "idle", "done"), what: "not blocked"},
			{name: "API error → idle", setup: []string{"C-u"}, text: "FAIL now", want: stateIs("idle", "done"), what: "idle"},
			{name: "retry → working", text: "RETRY now", want: stateIs("working"), what: "working"},
			{name: "Esc in retry → idle", keys: []string{"Escape"}, want: stateIs("idle", "done"), what: "idle"},
			{name: "exit → released", setup: []string{"C-u"}, text: "/exit", want: released, what: "released"},
		},
	},
	"gemini": {
		trust: trustGeminiFolder,
		start: []step{{wait: `Type your message`, within: 2 * time.Minute}},
		steps: []transition{
			{name: "prompt → working", text: "answer SLOW", want: stateIs("working"), what: "working"},
			{name: "Esc → idle", keys: []string{"Escape"}, want: stateIs("idle", "done"), what: "idle"},
			{name: "permission → blocked naming the command", text: "run a LONG TOOL", want: blockedOn("sleep 12"), what: "blocked: sleep 12"},
			{name: "allow (agent answer --yes) → working", taw: []string{"agent", "answer", "{pane}", "--yes"}, want: stateIs("working"), what: "working"},
			{name: "turn ends unseen → done", want: func(p paneView) bool { return p.Done }, what: "done"},
			{name: "permission → blocked (again)", text: "run a TOOL", want: blockedOn("echo probe"), what: "blocked: echo probe"},
			{name: "deny (agent answer --no) → idle", taw: []string{"agent", "answer", "{pane}", "--no"}, want: stateIs("idle", "done"), what: "idle"},
			{name: "question → blocked", text: "ASK me", want: stateIs("blocked"), what: "blocked"},
			{name: "answer --text → went on", taw: []string{"agent", "answer", "{pane}", "--text", "dark blue"}, want: stateIs("working", "idle", "done"), what: "not blocked"},
			{name: "API error → idle", text: "FAIL now", want: stateIs("idle", "done"), what: "idle"},
			{name: "retry → working", text: "RETRY now", want: stateIs("working"), what: "working"},
			{name: "Esc in retry → idle", keys: []string{"Escape"}, want: stateIs("idle", "done"), what: "idle"},
			{name: "exit → released", text: "/quit", want: released, what: "released"},
		},
	},
	"codex": {
		start: []step{
			{wait: `Trust this folder\?`},
			// Codex 0.171.0 can drop an Enter that comes as it draws the dialog: pressed again
			// while the dialog stays.
			{keys: []string{"Enter"}, again: true, wait: `Hooks need review`},
			{keys: []string{"Down", "Enter"}, wait: `(?m)^› `},
		},
		steps: []transition{
			{name: "prompt → working", text: "answer SLOW", want: stateIs("working"), what: "working"},
			{name: "Esc → idle", keys: []string{"Escape"}, want: stateIs("idle", "done"), what: "idle"},
			{name: "permission → blocked naming the command", text: "run a LONG TOOL", want: blockedOn("sleep 12"), what: "blocked: sleep 12"},
			{name: "allow (agent answer --yes) → working", taw: []string{"agent", "answer", "{pane}", "--yes"}, want: stateIs("working"), what: "working"},
			{name: "turn ends unseen → done", want: func(p paneView) bool { return p.Done }, what: "done"},
			{name: "permission → blocked (again)", text: "run a TOOL", want: blockedOn("echo probe"), what: "blocked: echo probe"},
			{name: "deny (agent answer --no) → idle", taw: []string{"agent", "answer", "{pane}", "--no"}, want: stateIs("idle", "done"), what: "idle"},
			{name: "API error → idle", text: "FAIL now", want: stateIs("idle", "done"), what: "idle"},
			{name: "retry → working", text: "RETRY now", want: stateIs("working"), what: "working"},
			{name: "Esc in retry → idle", keys: []string{"Escape"}, want: stateIs("idle", "done"), what: "idle"},
			// Codex asks its questions in Plan mode, two in one form.
			{name: "question form → blocked", setup: []string{"BTab"}, text: "ASK me", want: stateIs("blocked"), what: "blocked"},
			{name: "answer question 1 --option 1 → question 2", taw: []string{"agent", "answer", "{pane}", "--option", "1"}, want: stateIs("blocked"), what: "blocked on question 2", stays: true},
			{name: "answer question 2 --text → went on", taw: []string{"agent", "answer", "{pane}", "--text", "dark blue"}, want: stateIs("working", "idle", "done"), what: "not blocked"},
			{name: "exit → released", setup: []string{"BTab"}, keys: []string{"C-c", "C-c"}, want: released, what: "released"},
		},
	},
}

// escTwiceTruth is OpenCode's, Kilo's (OpenCode's fork: the same screens and plugin events) and
// Copilot CLI's: the first Esc of a turn arms the interrupt, the second interrupts.
func escTwiceTruth(question ...transition) []transition {
	return append(append(append([]transition(nil), escTwiceBefore...), question...), escTwiceAfter...)
}

var escTwiceBefore = []transition{
	{name: "prompt → working", text: "answer SLOW", want: stateIs("working"), what: "working"},
	// Its first Esc arms the interrupt ("esc again to interrupt"), the second interrupts.
	// Copilot CLI drops an Esc that comes as the turn starts.
	{name: "Esc → idle", pause: time.Second, keys: []string{"Escape", "Escape"}, want: stateIs("idle", "done"), what: "idle"},
	{name: "permission → blocked naming the command", text: "run a LONG TOOL", want: blockedOn("sleep 12"), what: "blocked: sleep 12"},
	{name: "allow (agent answer --yes) → working", taw: []string{"agent", "answer", "{pane}", "--yes"}, want: stateIs("working"), what: "working"},
	{name: "turn ends unseen → done", want: func(p paneView) bool { return p.Done }, what: "done"},
	{name: "permission → blocked (again)", text: "run a TOOL", want: blockedOn("echo probe"), what: "blocked: echo probe"},
	{name: "deny (agent answer --no) → idle", taw: []string{"agent", "answer", "{pane}", "--no"}, want: stateIs("idle", "done"), what: "idle"},
}

var escTwiceAfter = []transition{
	{name: "API error → idle", text: "FAIL now", want: stateIs("idle", "done"), what: "idle"},
	{name: "retry → working", text: "RETRY now", want: stateIs("working"), what: "working"},
	{name: "Esc in retry → idle", keys: []string{"Escape", "Escape"}, want: stateIs("idle", "done"), what: "idle"},
	// Copilot CLI puts a prompt whose retry was cancelled back in its input.
	{name: "exit → released", setup: []string{"C-u"}, text: "/exit", want: released, what: "released"},
}

// screenOnlyTruth is Qwen Code's and Cline's: taw has no integration for them, so taw reads them
// off the screen, and a screen gives a blocked agent no message: the permission's command is
// not checked.
var screenOnlyTruth = []transition{
	{name: "prompt → working", text: "answer SLOW", want: stateIs("working"), what: "working"},
	{name: "Esc → idle", keys: []string{"Escape"}, want: stateIs("idle", "done"), what: "idle"},
	// Qwen Code puts a cancelled prompt back in its input.
	{name: "permission → blocked", setup: []string{"C-u"}, text: "run a LONG TOOL", want: stateIs("blocked"), what: "blocked"},
	{name: "allow (agent answer --yes) → working", taw: []string{"agent", "answer", "{pane}", "--yes"}, want: stateIs("working"), what: "working"},
	{name: "turn ends unseen → done", want: func(p paneView) bool { return p.Done }, what: "done"},
	{name: "permission → blocked (again)", text: "run a TOOL", want: stateIs("blocked"), what: "blocked"},
	{name: "deny (agent answer --no) → idle", taw: []string{"agent", "answer", "{pane}", "--no"}, want: stateIs("idle", "done"), what: "idle"},
	{name: "API error → idle", text: "FAIL now", want: stateIs("idle", "done"), what: "idle", shown: `the stand-in refused`},
	{name: "retry → working", text: "RETRY now", want: stateIs("working"), what: "working"},
	{name: "Esc in retry → idle", keys: []string{"Escape"}, want: stateIs("idle", "done"), what: "idle"},
	{name: "exit → released", setup: []string{"C-u"}, text: "/quit", want: released, what: "released"},
}

func init() {
	truthFlows["copilot"] = truthFlow{
		start: []step{
			{wait: `Do you trust the files in this folder\?`, within: 2 * time.Minute},
			{keys: []string{"1"}, wait: `Manual Approval`},
		},
		// Its question is a form, "enter accept · ctrl+d decline": the stand-in's has one field
		// with suggested values and "Other (type your answer)".
		steps: escTwiceTruth(
			transition{name: "question → blocked", text: "ASK me", want: stateIs("blocked"), what: "blocked"},
			transition{name: "answer --option 1 → went on", taw: []string{"agent", "answer", "{pane}", "--option", "1"}, want: stateIs("working", "idle", "done"), what: "not blocked"},
			transition{name: "question → blocked (text)", text: "ASK me again", want: stateIs("blocked"), what: "blocked"},
			transition{name: "answer --text → went on", taw: []string{"agent", "answer", "{pane}", "--text", "dark blue"}, want: stateIs("working", "idle", "done"), what: "not blocked, model heard it", heard: "dark blue"},
		),
	}
	truthFlows["qwen"] = truthFlow{
		start: []step{
			{wait: `Type your message`, within: 2 * time.Minute},
			// It starts in its auto mode; three Shift+Tabs reach the mode that asks.
			{keys: []string{"BTab", "BTab", "BTab"}, wait: `Ask permissions`},
		},
		steps: screenOnlyTruth,
	}
	truthFlows["cline"] = truthFlow{
		start: []step{
			{wait: `Connect a model provider`, within: 2 * time.Minute},
			{keys: []string{"Down", "Down", "Down", "Enter"}, wait: `Search providers`},
			{typed: "OpenAI Compatible", wait: `Choose a provider`},
			{keys: []string{"Enter"}, wait: `Tab to switch fields`},
			{keys: []string{"C-u"}, wait: `Base URL`},
			{typed: "{url}/v1", wait: `127\.0\.0\.1`},
			{keys: []string{"Tab", "Tab"}, wait: `API key`},
			{typed: "sk-standin", wait: `sk-standin`},
			{keys: []string{"Enter"}, wait: `Set model ID`},
			{keys: []string{"Enter"}, wait: `any other key to close|What can I do for you`},
			{keys: []string{"Escape"}, wait: `What can I do for you|Ask anything`},
			{keys: []string{"BTab"}, wait: `Auto-approve all disabled`},
		},
		steps: append(screenOnlyTruth[:len(screenOnlyTruth)-1:len(screenOnlyTruth)-1],
			transition{name: "question → blocked", setup: []string{"C-u"}, text: "ASK me", want: stateIs("blocked"), what: "blocked"},
			transition{name: "answer --option 1 → went on", taw: []string{"agent", "answer", "{pane}", "--option", "1"}, want: stateIs("working", "idle", "done"), what: "not blocked"},
			transition{name: "question → blocked (text)", setup: []string{"C-u"}, text: "ASK me again", want: stateIs("blocked"), what: "blocked"},
			transition{name: "answer --text → went on", taw: []string{"agent", "answer", "{pane}", "--text", "dark blue"}, want: stateIs("working", "idle", "done"), what: "not blocked, model heard it", heard: "dark blue"},
			transition{name: "exit → released", text: "/exit", want: released, what: "released"}),
	}
	// OpenCode's questions come as one form, a page a question and a review page to submit.
	opencodeForm := escTwiceTruth(
		transition{name: "question form → blocked", text: "ASK me", want: stateIs("blocked"), what: "blocked"},
		transition{name: "answer question 1 --option 1 → question 2", taw: []string{"agent", "answer", "{pane}", "--option", "1"}, want: stateIs("blocked"), what: "blocked on question 2", stays: true},
		// Its cursor shows in colour only: --text goes by the number key of "Type your own answer".
		transition{name: "answer question 2 --text → review", taw: []string{"agent", "answer", "{pane}", "--text", "dark blue"}, want: stateIs("blocked"), what: "blocked on the review", stays: true},
		transition{name: "submit (answer --yes) → went on", taw: []string{"agent", "answer", "{pane}", "--yes"}, want: stateIs("working", "idle", "done"), what: "not blocked, model heard it", heard: "dark blue"},
	)
	truthFlows["opencode"] = truthFlow{start: []step{{wait: `Ask anything`, within: 2 * time.Minute}}, steps: opencodeForm}
	// Kilo Code asks what to do instead before a rejection goes: an empty answer confirms it.
	var kiloForm []transition
	for _, tr := range opencodeForm {
		if strings.HasPrefix(tr.name, "deny") {
			kiloForm = append(kiloForm,
				transition{name: "deny (agent answer --no) → what instead", taw: tr.taw, want: stateIs("blocked"), what: "blocked on the reason", stays: true},
				transition{name: "confirm (answer --option 1) → idle", taw: []string{"agent", "answer", "{pane}", "--option", "1"}, want: tr.want, what: tr.what})
			continue
		}
		kiloForm = append(kiloForm, tr)
	}
	truthFlows["kilo"] = truthFlow{start: []step{{wait: `Ask anything`, within: 2 * time.Minute}}, steps: kiloForm}
	// pi has no permission prompt (its tools run without asking) and no question tool of its own.
	truthFlows["pi"] = truthFlow{
		start: []step{{wait: `pi v0\.`, within: 2 * time.Minute}},
		steps: []transition{
			{name: "prompt → working", text: "answer SLOW", want: stateIs("working"), what: "working"},
			{name: "Esc → idle", keys: []string{"Escape"}, want: stateIs("idle", "done"), what: "idle"},
			{name: "long command → working", text: "run a LONG TOOL", want: stateIs("working"), what: "working"},
			{name: "turn ends unseen → done", want: func(p paneView) bool { return p.Done }, what: "done"},
			{name: "API error → idle", text: "FAIL now", want: stateIs("idle", "done"), what: "idle"},
			{name: "retry → working", text: "RETRY now", want: stateIs("working"), what: "working"},
			{name: "Esc in retry → idle", keys: []string{"Escape"}, want: stateIs("idle", "done"), what: "idle"},
			{name: "exit → released", text: "/quit", want: released, what: "released"},
		},
	}
}

func TestLiveTruth(t *testing.T) {
	cache, only, list, root := liveSetup(t)
	bin := buildTaw(t, root)
	for _, a := range list {
		tf, ok := truthFlows[a.ID]
		if (len(only) > 0 && !only[a.ID]) || !ok {
			continue
		}
		t.Run(a.ID, func(t *testing.T) {
			if err := a.Install(context.Background(), cache); err != nil {
				t.Fatal(err)
			}
			url, model := serveStandin(t)
			runTruth(t, bin, cache, url, model, a, flows[a.ID], tf)
		})
	}
}

func runTruth(t *testing.T, bin, cache, url string, model *standin.Server, a Agent, f flow, tf truthFlow) {
	start, steps := tf.start, tf.steps
	home, repo, path := agentHome(t, bin, cache, url, a, "truth-"+a.ID, tf.trust)
	env := []string{"HOME=" + home, "TERM=xterm-256color", "LANG=C.UTF-8", "PATH=" + path}
	if f.env != nil {
		env = append(env, f.env(home, url)...)
	}
	// The hooks find their pane through TMUX and TMUX_PANE, which the pane's shell has.
	// When the agent exits, the pane's own process becomes a shell at its prompt, as when a
	// person ran the agent from theirs: that is how taw knows an agent whose events say
	// nothing of its end has gone.
	cmd := `env -i TMUX="$TMUX" TMUX_PANE="$TMUX_PANE" ` + shellWords(append(env, a.Command(cache)...)) + "; exec sh"
	sock := fmt.Sprintf("taw-truth-%d-%s", os.Getpid(), a.ID)
	tm := capture.Tmux{Socket: sock}
	if _, err := tm.Run("new-session", "-d", "-s", "live", "-x", "120", "-y", "40", "-c", repo, cmd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tm.Run("kill-server") })
	taw := func(args ...string) (string, error) {
		c := exec.Command(filepath.Join(bin, "taw"), append([]string{"-L", sock}, args...)...)
		out, err := c.CombinedOutput()
		return string(out), err
	}
	if _, err := tm.Run("run-shell", "-b", filepath.Join(bin, "taw")+" -L "+sock+" watch --serve >/dev/null 2>&1"); err != nil {
		t.Fatal(err)
	}
	pane, err := tm.Run("display", "-p", "-t", "live:0.0", "#{pane_id}")
	if err != nil {
		t.Fatal(err)
	}
	pane = strings.TrimSpace(pane)
	for _, s := range start {
		time.Sleep(s.pause)
		if s.typed != "" {
			tm.Run("send-keys", "-t", pane, "-l", strings.ReplaceAll(s.typed, "{url}", url))
			time.Sleep(500 * time.Millisecond)
		}
		for _, k := range s.keys {
			tm.Run("send-keys", "-t", pane, k)
			time.Sleep(300 * time.Millisecond)
		}
		re := regexp.MustCompile(s.wait)
		gone := regexp.MustCompile(`^\b$`) // matches no screen
		if s.gone != "" {
			gone = regexp.MustCompile(s.gone)
		}
		within := s.within
		if within == 0 {
			within = 90 * time.Second
		}
		shot, ok, err := untilShown(tm, pane, a.ID, s.keys, s.again, within, func(sh capture.Shot) bool { return re.MatchString(sh.Text()) && !gone.MatchString(sh.Text()) })
		if err != nil || !ok {
			t.Fatalf("%s: start-up screen %q not seen (%v); it shows:\n%s", a.ID, s.wait, err, shot.Text())
		}
	}
	get := func() paneView {
		var p paneView
		out, err := taw("pane", "get", pane, "--json")
		if err == nil {
			json.Unmarshal([]byte(out), &p)
		}
		return p
	}
	var table []string
	for _, tr := range steps {
		time.Sleep(tr.pause)
		for _, k := range tr.setup {
			tm.Run("send-keys", "-t", pane, k)
			time.Sleep(300 * time.Millisecond)
		}
		if tr.text != "" {
			tm.Run("send-keys", "-t", pane, "-l", tr.text)
			time.Sleep(time.Second) // some agents take an Enter that comes with the text as part of a paste
		}
		if len(tr.taw) > 1 && tr.taw[1] == "answer" {
			// A person reads the dialog before answering it. (taw agent answer itself waits
			// until the dialog has been up for the agent's settle time.)
			time.Sleep(time.Second)
		}
		began := time.Now()
		switch {
		case tr.text != "":
			tm.Run("send-keys", "-t", pane, "Enter")
		case len(tr.keys) > 0:
			for i, k := range tr.keys {
				// An Escape followed at once by another key reads as Alt and that key, and
				// a second Escape 600 ms later comes too late for Copilot's "esc again to
				// interrupt" while an answer streams.
				if i > 0 {
					time.Sleep(300 * time.Millisecond)
				}
				tm.Run("send-keys", "-t", pane, k)
			}
		case len(tr.taw) > 0:
			args := make([]string, len(tr.taw))
			for i, w := range tr.taw {
				args[i] = strings.ReplaceAll(w, "{pane}", pane)
			}
			out, err := taw(append(args, "--json")...)
			t.Logf("%s %s: taw %s (%.1fs): %v %s", a.ID, tr.name, strings.Join(args, " "), time.Since(began).Seconds(), err, strings.TrimSpace(out))
			if err != nil {
				table = append(table, fmt.Sprintf("| %s | %s | wrong (taw failed: %s) | %.1f |", a.ID, tr.name, firstLine(out), time.Since(began).Seconds()))
				screen, _ := tm.Run("capture-pane", "-p", "-t", pane)
				t.Errorf("%s %s: taw %s failed: %v: %s; the screen's last lines:\n%s", a.ID, tr.name, strings.Join(args, " "), err, out, lastLines(screen, 20))
				continue
			}
		}
		var p paneView
		ok, told := false, false
		var shown *regexp.Regexp
		if tr.shown != "" {
			shown = regexp.MustCompile(tr.shown)
		}
		for deadline := began.Add(40 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			p = get()
			// A state that held before the action is no answer to it: the change must come after,
			// or, for a cell that names what the screen shows, the screen must show it.
			after := tr.stays || tr.what == "released" || p.Since != nil && *p.Since >= began.UnixMilli()-100
			if shown != nil {
				screen, _ := tm.Run("capture-pane", "-p", "-t", pane)
				after = shown.MatchString(screen)
			}
			if tr.want(p) && after && (tr.heard == "" || model.Heard(tr.heard)) {
				ok = true
				break
			}
			// Past the 2 seconds a transition may take, what taw saw and why, for the log.
			if !told && time.Since(began) > 2*time.Second {
				told = true
				why, _ := taw("pane", "explain", pane)
				screen, _ := tm.Run("capture-pane", "-p", "-t", pane)
				t.Logf("%s %s: not %s after 2s; taw pane explain:\n%s\nthe screen's last lines:\n%s", a.ID, tr.name, tr.what, strings.TrimSpace(why), lastLines(screen, 12))
			}
		}
		took := time.Since(began).Seconds()
		if !ok {
			screen, _ := tm.Run("capture-pane", "-p", "-t", pane)
			table = append(table, fmt.Sprintf("| %s | %s | wrong (%s) | >40 |", a.ID, tr.name, p))
			if tr.heard != "" && !model.Heard(tr.heard) {
				t.Errorf("%s %s: the model never received %q in a tool's result", a.ID, tr.name, tr.heard)
			}
			t.Errorf("%s %s: want %s within 40s; taw shows %s; screen:\n%s", a.ID, tr.name, tr.what, p, screen)
			continue
		}
		table = append(table, fmt.Sprintf("| %s | %s | right | %.1f |", a.ID, tr.name, took))
	}
	t.Logf("time to truth, %s %s:\n| agent | transition | taw pane get | seconds |\n|---|---|---|---|\n%s", a.ID, a.Version, strings.Join(table, "\n"))
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n "), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}
