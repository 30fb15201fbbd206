package session

import (
	"reflect"
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/shellquote"
)

func TestOwnResume(t *testing.T) {
	tests := []struct {
		agent, id, path string
		want            []string
	}{
		{"claude", "abc", "", []string{"claude", "--resume", "abc"}},
		{"claude-code", "abc", "", []string{"claude", "--resume", "abc"}}, // an alias
		{"codex", "019a", "", []string{"codex", "resume", "019a"}},
		{"opencode", "ses_1", "", []string{"opencode", "--session", "ses_1"}},
		{"cursor", "c1", "", []string{"cursor-agent", "--resume", "c1"}},
		{"copilot", "x", "", []string{"copilot", "--resume=x"}},
		{"pi", "id", "/s/p.jsonl", []string{"pi", "--session", "/s/p.jsonl"}}, // the file wins
		{"omp", "id", "", []string{"omp", "--resume=id"}},
		{"claude", "", "", nil},    // no session
		{"my-agent", "x", "", nil}, // taw has no command of its own for it
	}
	for _, tt := range tests {
		if got := OwnResume(tt.agent, tt.id, tt.path); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("OwnResume(%q, %q, %q) = %q, want %q", tt.agent, tt.id, tt.path, got, tt.want)
		}
	}
}

func TestChooseResume(t *testing.T) {
	reported := &Agent{Name: "claude", Source: "integration:claude", ReportedKind: "claude",
		SessionID: "s1", SessionSource: "integration:claude", SessionAgent: "claude",
		Resume: []string{"claude", "--resume", "s1", "--model", "opus"}, ResumeSource: "integration:claude", ResumeAgent: "claude"}
	res, problem := ChooseResume(reported)
	if problem != "" || res == nil || res.Origin != "reported" || !reflect.DeepEqual(res.Argv, reported.Resume) {
		t.Fatalf("the reported command must beat taw's own: %+v %q", res, problem)
	}

	onlySession := &Agent{Name: "codex", SessionID: "019a", SessionSource: "integration:codex", SessionAgent: "codex"}
	res, _ = ChooseResume(onlySession)
	if res == nil || res.Origin != "taw" || shellquote.Line(shellquote.POSIX, res.Argv) != "codex resume 019a" || res.Source != "integration:codex" {
		t.Fatalf("taw's own command for a session: %+v", res)
	}

	// A command edited into the file that breaks the contract is never typed; taw's own is used.
	edited := *reported
	edited.Resume = []string{"claude", "it's"}
	res, problem = ChooseResume(&edited)
	if res == nil || res.Origin != "taw" || problem == "" {
		t.Fatalf("an apostrophe must not be typed: %+v %q", res, problem)
	}
	edited.Resume = []string{"/bin/rm", "-rf"}
	edited.SessionAgent = ""
	if res, problem = ChooseResume(&edited); res != nil || problem == "" {
		t.Fatalf("a path as the command must not be typed: %+v %q", res, problem)
	}

	// A save holding a session id or path that starts with - (edited by hand, or older than the
	// check when reported) types nothing: neither the reported command nor taw's own.
	for _, a := range []*Agent{
		{Name: "claude", SessionID: "--dangerously-skip-permissions", SessionAgent: "claude", ReportedKind: "claude",
			Resume: []string{"claude", "--resume", "--dangerously-skip-permissions"}, ResumeAgent: "claude"},
		{Name: "codex", SessionID: "-c", SessionAgent: "codex"},
		{Name: "pi", SessionPath: "--extension=x.js", SessionAgent: "pi"},
	} {
		if res, problem := ChooseResume(a); res != nil || !strings.Contains(problem, "starts with -, which the agent would read as an option") {
			t.Errorf("%s with a session of %q %q: %+v %q", a.Name, a.SessionID, a.SessionPath, res, problem)
		}
	}

	if res, problem := ChooseResume(&Agent{Name: "aider", Detected: "aider"}); res != nil || problem != "" {
		t.Fatalf("no session, no command: %+v %q", res, problem)
	}
}

func TestSessionKeys(t *testing.T) {
	a := &Agent{SessionID: "s1", SessionAgent: "claude", Resume: []string{"claude", "--resume", "s1"}, ResumeAgent: "claude"}
	b := &Agent{SessionID: "s1", SessionAgent: "claude", Resume: []string{"claude", "--resume", "s1", "--model", "x"}, ResumeAgent: "claude"}
	ra, _ := ChooseResume(a)
	rb, _ := ChooseResume(b)
	if ra.SessionKey != rb.SessionKey {
		t.Errorf("two commands of one session must share a key: %q %q", ra.SessionKey, rb.SessionKey)
	}
	c := &Agent{Resume: []string{"my-agent", "--resume", "x"}, ResumeAgent: "my-agent"}
	d := &Agent{Resume: []string{"my-agent", "--resume", "y"}, ResumeAgent: "my-agent"}
	rc, _ := ChooseResume(c)
	rd, _ := ChooseResume(d)
	if rc.SessionKey == rd.SessionKey {
		t.Errorf("two commands without a session id are told apart by the command: %q", rc.SessionKey)
	}
}

func TestRestoredRecord(t *testing.T) {
	a := &Agent{Name: "my-agent", Source: "my-agent", ReportedKind: "my-agent", SessionID: "S1", SessionSource: "my-agent", SessionAgent: "my-agent",
		Resume: []string{"my-agent", "--resume", "S1"}, ResumeSource: "my-agent", ResumeAgent: "my-agent"}
	res, _ := ChooseResume(a)
	r := RestoredRecord(a, res)
	agent, state := r.Effective()
	if agent != "my-agent" || state != report.StateUnknown || r.Kind != "my-agent" || r.Source != "my-agent" ||
		r.SessionID != "S1" || r.ResumeAgent != "my-agent" || shellquote.Line(shellquote.POSIX, r.Resume) != "my-agent --resume S1" {
		t.Fatalf("restored record %+v", r)
	}
	// The agent's next report is the same source taking the pane: its command stays.
	next, _ := report.Apply(r, report.Report{Verb: report.ReportAgent, Source: "my-agent", Agent: "my-agent", State: "idle"})
	if len(next.Resume) == 0 {
		t.Fatalf("the agent's own report must keep the restored command")
	}
	// Another source taking the pane ends it.
	next, _ = report.Apply(r, report.Report{Verb: report.ReportAgent, Source: "other", Agent: "other", State: "idle"})
	if len(next.Resume) != 0 {
		t.Fatalf("another source must take the command off")
	}
}
