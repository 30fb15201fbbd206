package watch

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/detect"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmux"
)

// The phases of a look, each on its own: list, probe, capture, classify, decide and write. The
// ones that read the panes or write to them do it on a tmux server of their own (-L, no config),
// running a fake Claude Code: a copy of sleep named claude.

func rules(t *testing.T) *detect.Rules {
	t.Helper()
	rs, errs := detect.Load(func(string) string { return "" })
	for _, err := range errs {
		t.Fatal(err)
	}
	return rs
}

// paneServer starts a server whose one pane runs sh -c script with a copy of sleep named claude
// on its PATH, and waits (bounded) until the pane's foreground is claude.
func paneServer(t *testing.T, script string) (*tmux.Client, string) {
	t.Helper()
	return paneServerWith(t, "sleep", script, "claude")
}

// paneServerWith is paneServer with program (sleep, bash) as the claude on the pane's PATH,
// waiting until the pane's foreground is front.
func paneServerWith(t *testing.T, program, script, front string) (*tmux.Client, string) {
	t.Helper()
	bin := t.TempDir()
	target, err := exec.LookPath(program)
	if err != nil {
		t.Fatal(err)
	}
	// Run through a link, the program is named claude: in its argv[0] and by the kernel.
	if err := os.Symlink(target, filepath.Join(bin, "claude")); err != nil {
		t.Fatal(err)
	}
	sock := fmt.Sprintf("taw-watch-phases-%d-%d", os.Getpid(), time.Now().UnixNano())
	c := &tmux.Client{Global: []string{"-L", sock, "-f", "/dev/null"}}
	start := exec.Command("tmux", "-L", sock, "-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "80", "-y", "24",
		"env", "PATH="+bin+":"+os.Getenv("PATH"), "sh", "-c", script)
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("start tmux: %v: %s", err, out)
	}
	ctx := context.Background()
	path, _ := c.Output(ctx, "display-message", "-p", "#{socket_path}")
	t.Cleanup(func() {
		_ = exec.Command("tmux", "-L", sock, "kill-server").Run()
		if path != "" {
			_ = os.Remove(path)
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, err := c.Output(ctx, "display-message", "-p", "-t", "main", "#{pane_id} #{pane_current_command}")
		if id, cmd, _ := strings.Cut(out, " "); err == nil && cmd == front {
			return c, id
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pane never ran %s: %q, %v", front, out, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// looksUntil makes looks, as Run would, until the memo of pane id passes ok (bounded).
func looksUntil(t *testing.T, w *Watcher, id, what string, ok func(m *paneMemo) bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, _, err := w.Look(context.Background()); err != nil {
			t.Fatal(err)
		}
		if m := w.memo[id]; m != nil && ok(m) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: pane memo %+v", what, w.memo[id])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func newTestWatcher(t *testing.T, c *tmux.Client) *Watcher {
	w := New(Config{Client: c, LockDir: filepath.Join(t.TempDir(), "locks"), Rules: rules(t)})
	t.Cleanup(w.Close)
	return w
}

// listAndProbe runs a look's first two phases.
func listAndProbe(t *testing.T, w *Watcher) *lookPass {
	t.Helper()
	ctx := context.Background()
	l, err := w.listPanes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w.probePanes(ctx, l)
	return l
}

func TestListPanesIsOneCall(t *testing.T) {
	c, id := paneServer(t, "exec claude 600")
	w := newTestWatcher(t, c)
	l, err := w.listPanes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.data.panes) != 1 || l.data.panes[0].ID != id || l.st.TmuxCalls != 1 || l.st.Panes != 1 {
		t.Fatalf("listed %d panes (%+v) in %d calls, want %s in one", len(l.data.panes), l.data.panes, l.st.TmuxCalls, id)
	}
	_ = exec.Command("tmux", append(c.Global, "kill-server")...).Run()
	if _, err := w.listPanes(context.Background()); err == nil {
		t.Error("a look at a server that is gone gave no error")
	}
}

func TestProbePanesNamesTheAgentAndReadsTheTreeOnlyWhenItMoved(t *testing.T) {
	c, _ := paneServer(t, "exec claude 600")
	w := newTestWatcher(t, c)
	l := listAndProbe(t, w)
	if f := l.facts[0]; !f.Known || f.Agent != "claude" || f.AtPrompt || l.st.Probes != 1 {
		t.Fatalf("first probe: facts %+v after %d probes, want claude known after one", f, l.st.Probes)
	}
	l = listAndProbe(t, w)
	if f := l.facts[0]; f.Agent != "claude" || l.st.Probes != 0 {
		t.Errorf("second probe of an unchanged pane: facts %+v after %d probes of its tree, want claude from its stat file alone", f, l.st.Probes)
	}
}

func TestCaptureScreensReadsOnlyAgentsScreens(t *testing.T) {
	c, id := paneServer(t, "echo screen-of-the-agent; exec claude 600")
	w := newTestWatcher(t, c)
	ctx := context.Background()
	l := listAndProbe(t, w)
	w.captureScreens(ctx, l)
	if got := strings.Join(l.screens[id], "\n"); !strings.Contains(got, "screen-of-the-agent") || l.st.Captures != 1 {
		t.Fatalf("captured %d screens, %s's %q; want its screen", l.st.Captures, id, got)
	}
	// A pane with no agent in front is never captured.
	w.memo[id].agent = ""
	l.screens = nil
	w.captureScreens(ctx, l)
	if len(l.screens) != 0 {
		t.Errorf("a pane without an agent was captured: %q", l.screens)
	}
}

func fixtureLines(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "detect", "testdata", "claude", name))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for len(lines) > 0 && strings.HasPrefix(lines[0], "# ") {
		lines = lines[1:]
	}
	return lines
}

func TestClassifyScreensKeepsTheVerdictOfAnUnchangedScreen(t *testing.T) {
	w := New(Config{Rules: rules(t)})
	panes := []panestate.Pane{{ID: "%1", Options: panestate.NoOptions()}, {ID: "%2", Options: panestate.NoOptions()}}
	w.memo["%1"] = &paneMemo{agent: "claude"}
	w.memo["%2"] = &paneMemo{agent: "claude"}
	l := &lookPass{data: lookData{panes: panes}, now: time.Now(), facts: make([]Facts, 2),
		screens: map[string][]string{"%1": fixtureLines(t, "working_spinner.txt"), "%2": fixtureLines(t, "idle_prompt.txt")}}
	w.classifyScreens(l)
	if f := l.facts[0]; !f.Classified || f.State != "working" {
		t.Errorf("a working screen: facts %+v", f)
	}
	if f := l.facts[1]; !f.Classified || f.State != "idle" {
		t.Errorf("an idle screen: facts %+v", f)
	}
	// The next look reads neither screen: each verdict stands.
	l = &lookPass{data: lookData{panes: panes}, now: time.Now(), facts: make([]Facts, 2), screens: map[string][]string{}}
	w.classifyScreens(l)
	if l.facts[0].State != "working" || l.facts[1].State != "idle" || !l.facts[0].Classified {
		t.Errorf("unread screens: facts %+v, want the last verdicts", l.facts)
	}
}

func TestClassifyScreensKeepsTheVerdictOverABlankScreenAWhile(t *testing.T) {
	w := New(Config{Rules: rules(t)})
	panes := []panestate.Pane{{ID: "%1", Options: panestate.NoOptions()}}
	w.memo["%1"] = &paneMemo{agent: "claude"}
	look := func(lines []string, at time.Time) Facts {
		l := &lookPass{data: lookData{panes: panes}, now: at, facts: make([]Facts, 1), screens: map[string][]string{"%1": lines}}
		w.classifyScreens(l)
		return l.facts[0]
	}
	blankScreen := make([]string, 24)
	start := time.Now()
	if f := look(fixtureLines(t, "real_2.1.197_blocked_permission-bash.txt"), start); f.State != "blocked" {
		t.Fatalf("a permission: facts %+v", f)
	}
	// Caught between an agent's clear and its next frame: the dialog is not gone.
	if f := look(blankScreen, start.Add(100*time.Millisecond)); !f.Classified || f.State != "blocked" {
		t.Errorf("a blank screen just after a dialog: facts %+v, want blocked still", f)
	}
	if f := look(blankScreen, start.Add(100*time.Millisecond+blankFor)); f.State != "idle" {
		t.Errorf("a screen blank for %s: facts %+v, want it read as it is (idle)", blankFor, f)
	}
	// Text again, then blank again: the wait starts over.
	look(fixtureLines(t, "working_spinner.txt"), start.Add(2*blankFor))
	if f := look(blankScreen, start.Add(2*blankFor+100*time.Millisecond)); f.State != "working" {
		t.Errorf("blank after a new frame: facts %+v, want working still", f)
	}
}

func TestDecidePanesWantsWritesOnlyWhereTheRecordChanges(t *testing.T) {
	w := New(Config{Rules: rules(t)})
	panes := []panestate.Pane{{ID: "%1", Options: panestate.NoOptions()}, {ID: "%2", Options: panestate.NoOptions()}}
	l := &lookPass{data: lookData{panes: panes}, now: time.Now(), screens: map[string][]string{},
		facts: []Facts{{Known: true, Agent: "claude", Classified: true, State: "working"}, {Known: true, AtPrompt: true}}}
	w.decidePanes(context.Background(), l)
	if !l.due[0] || l.decisions[0].Record.Detected != "claude" || l.decisions[0].Record.DetectedState != "working" {
		t.Errorf("a pane where claude works: due %t, decision %+v", l.due[0], l.decisions[0])
	}
	if l.due[1] || l.st.TmuxCalls != 0 {
		t.Errorf("a plain shell at its prompt: due %t after %d calls, want nothing to write and no call", l.due[1], l.st.TmuxCalls)
	}
}

func TestWritePanesWritesTheDecision(t *testing.T) {
	c, id := paneServer(t, "exec claude 600")
	w := newTestWatcher(t, c)
	ctx := context.Background()
	l := listAndProbe(t, w)
	l.screens = map[string][]string{id: fixtureLines(t, "working_spinner.txt")}
	w.classifyScreens(l)
	w.decidePanes(ctx, l)
	panes := w.writePanes(ctx, l)
	if l.st.Writes != 1 || panes[0].Options[panestate.OptName] != "claude" {
		t.Fatalf("%d writes, pane %+v; want claude written", l.st.Writes, panes[0].Options)
	}
	got, err := c.Output(ctx, "display-message", "-p", "-t", id, "#{"+panestate.OptName+"} #{"+panestate.OptState+"}")
	if err != nil || got != "claude working" {
		t.Errorf("the pane's options read %q, %v; want claude working", got, err)
	}
}

// A look takes away the turn-end mark it saw and keeps one a report set since, with formats:
// no command is parsed in the server (tmux 3.3a to 3.7c keep every list if-shell parses).
func TestTakeTurnEndsTakesOnlyTheMarkSeen(t *testing.T) {
	c, id := paneServer(t, "exec claude 600")
	w := newTestWatcher(t, c)
	ctx := context.Background()
	set := func(v string) {
		if _, err := c.Run(ctx, tmux.Cmd{"set-option", "-p", "-t", id, panestate.OptTurnEnded, v}); err != nil {
			t.Fatal(err)
		}
	}
	get := func() string {
		v, _ := c.Output(ctx, "display-message", "-p", "-t", id, "#{"+panestate.OptTurnEnded+"}")
		return v
	}
	seen := func(mark string) []panestate.Pane {
		return []panestate.Pane{{ID: id, Options: map[string]string{panestate.OptTurnEnded: mark}}}
	}
	set("claude working 1,#}")
	panes := seen("claude working 1,#}")
	if n := w.takeTurnEnds(ctx, panes); n != 1 || get() != "" || panes[0].Options[panestate.OptTurnEnded] != "" {
		t.Errorf("the mark seen stays: %q after %d calls", get(), n)
	}
	set("claude working 2")
	w.takeTurnEnds(ctx, seen("claude working 1,#}"))
	if got := get(); got != "claude working 2" {
		t.Errorf("a newer mark became %q", got)
	}
}
