package session

import (
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/panestate"
)

func agentPane(dir, id string, argv ...string) Pane {
	return Pane{Dir: dir, Agent: &Agent{Name: "my-agent", Source: "my-agent", ReportedKind: "my-agent",
		SessionID: id, SessionSource: "my-agent", SessionAgent: "my-agent",
		Resume: argv, ResumeSource: "my-agent", ResumeAgent: "my-agent"}}
}

func doc(sessions ...Session) *Document {
	return &Document{Format: FormatName, Version: Version, Sessions: sessions}
}

func TestPlanRestore(t *testing.T) {
	d := doc(
		Session{Name: "main", Windows: []Window{{Index: 0, Panes: []Pane{agentPane("/a", "S0", "my-agent", "--resume", "S0")}}}},
		Session{Name: "work", Windows: []Window{
			{Index: 2, Layout: "9797,200x49,0,0{100x49,0,0,8,99x49,101,0,9}", Panes: []Pane{
				{Index: 1, Dir: "/second"}, // out of order in the file: sorted by index
				agentPane("/first", "S1", "my-agent", "--resume", "S1", "a b", "x=y"),
			}},
			{Index: 0, Layout: "ce9d,200x49,0,0,0", Panes: []Pane{agentPane("/dup", "S1", "my-agent", "--resume", "S1")}},
			{Index: 5, Layout: "0000,1x1,0,0,0", Panes: []Pane{agentPane("/live", "S-live", "my-agent", "--resume", "S-live")}},
		}},
	)
	live := Live{Sessions: map[string]bool{"main": true}, Panes: []panestate.Pane{{
		ID: "%9", SessionName: "main", Options: map[string]string{
			panestate.OptName: "my-agent", panestate.OptSource: "my-agent", panestate.OptReportedKind: "my-agent",
			panestate.OptSessionID: "S-live", panestate.OptSessionSource: "my-agent", panestate.OptSessionAgent: "my-agent",
			panestate.OptResume: "my-agent --resume S-live", panestate.OptResumeSource: "my-agent", panestate.OptResumeAgent: "my-agent",
		}}}}
	p := PlanRestore(d, live, PlanOptions{ResumeAgents: true})
	if len(p.Kept) != 1 || p.Kept[0] != "main" {
		t.Fatalf("an existing session is kept as it is: %v", p.Kept)
	}
	if len(p.Create) != 1 || p.Create[0].Name != "work" {
		t.Fatalf("create %+v", p.Create)
	}
	ws := p.Create[0].Windows
	if ws[0].Index != 0 || ws[1].Index != 2 || ws[1].Panes[0].Dir != "/first" {
		t.Fatalf("windows and panes are put in index order: %+v", ws)
	}
	// The first pane in document order wins the session: work:0.0 (window 0 sorts first).
	if len(p.Typing) != 1 || p.Typing[0].Target.String() != "work:0.0" || p.Typing[0].Line != "my-agent --resume S1" {
		t.Fatalf("typing %+v", p.Typing)
	}
	notes := notesText(p.Notes)
	for _, want := range []string{
		"work:2.0: left a plain shell: the same my-agent session is resumed in work:0.0",
		"work:5.0: left a plain shell: the same my-agent session is resumed in pane %9 (main:0.0), which runs it already",
		"work:5: layout not applied (layout \"0000,1x1,0,0,0\" has a wrong checksum): its panes are tiled instead",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	if !p.Tiled["work"][5] || p.Tiled["work"][2] {
		t.Errorf("tiled %v", p.Tiled)
	}
	if w, h := Size(p.Create[0]); w != 200 || h != 49 {
		t.Errorf("size %dx%d", w, h)
	}
}

func TestPlanRestoreResumeOff(t *testing.T) {
	d := doc(Session{Name: "s", Windows: []Window{{Index: 0, Panes: []Pane{agentPane("/a", "S1", "my-agent", "--resume", "S1"), agentPane("/b", "S2", "my-agent", "--resume", "S2")}}}})
	p := PlanRestore(d, Live{Sessions: map[string]bool{}}, PlanOptions{})
	if len(p.Typing) != 0 || len(p.Create) != 1 {
		t.Fatalf("resume off types nothing: %+v", p.Typing)
	}
	if strings.Count(notesText(p.Notes), "resume_agents_on_restore = false") != 1 {
		t.Fatalf("said once: %+v", p.Notes)
	}
}

func TestPlanRestoreLayoutPaneCount(t *testing.T) {
	d := doc(Session{Name: "s", Windows: []Window{{Index: 0, Layout: "ce9d,200x49,0,0,0", Panes: []Pane{{Dir: "/a"}, {Index: 1, Dir: "/b"}}}}})
	p := PlanRestore(d, Live{Sessions: map[string]bool{}}, PlanOptions{ResumeAgents: true})
	if !p.Tiled["s"][0] || !strings.Contains(notesText(p.Notes), "it places 1 panes, the window saved 2") {
		t.Fatalf("a layout for another pane count is not applied: %+v", p.Notes)
	}
}

func notesText(ns []Note) string {
	var b strings.Builder
	for _, n := range ns {
		b.WriteString(n.Target + ": " + n.Note + "\n")
	}
	return b.String()
}

func TestPlanRestoreAgentWithoutSession(t *testing.T) {
	d := doc(Session{Name: "s", Windows: []Window{{Index: 0, Panes: []Pane{{Dir: "/a", Agent: &Agent{Name: "aider", Detected: "aider"}}}}}})
	p := PlanRestore(d, Live{Sessions: map[string]bool{}}, PlanOptions{ResumeAgents: true})
	if len(p.Typing) != 0 || !strings.Contains(notesText(p.Notes), "s:0.0: left a plain shell: aider ran here but reported no session taw can resume") {
		t.Fatalf("an agent with nothing to resume is said: %+v", p.Notes)
	}
}
