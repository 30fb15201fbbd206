package watch

import (
	"testing"

	"github.com/taw-tmux/taw/helper/report"
)

func TestDecide(t *testing.T) {
	const now, grace = 100_000, 30_000
	held := report.Record{Source: "s", Kind: "claude", ReportedState: "working",
		Detected: "claude", DetectedState: "idle",
		Resume: []string{"claude", "--resume", "x"}, ResumeSource: "s", ResumeAgent: "claude",
		SessionID: "x", SessionSource: "s", SessionAgent: "claude",
		Seq: report.Book{{Source: "s", Seq: 3}, {Source: "other", Seq: 9}}}
	screen := report.Record{Detected: "codex", DetectedState: "working"}
	// taw's own Claude Code hook said working (or blocked, with what it asked), and the screen
	// shows Claude Code at its prompt.
	own := report.Record{Source: "integration:claude", Kind: "claude", ReportedState: "working", Detected: "claude", DetectedState: "idle"}
	ownBlocked := own
	ownBlocked.ReportedState, ownBlocked.Message = "blocked", "Allow Bash(rm -rf build)?"
	prompt := Facts{Known: true, Agent: "claude", Classified: true, State: "idle", ScreenState: "idle", ScreenLooks: 2, ScreenFor: 1000, ReportAge: 5000}
	with := func(f Facts, change func(*Facts)) Facts { change(&f); return f }
	custom := own
	custom.Source = "my-claude-wrapper"
	opencode := report.Record{Source: "integration:opencode", Kind: "opencode", ReportedState: "working", Detected: "opencode", DetectedState: "idle"}
	piIdle := report.Record{Source: "integration:pi", Kind: "pi", ReportedState: "idle", Detected: "pi", DetectedState: "working"}
	ownIdle := own
	ownIdle.ReportedState = "idle"
	gemini := report.Record{Source: "integration:gemini", Kind: "gemini", ReportedState: "working", Detected: "gemini", DetectedState: "idle"}
	geminiIdle := gemini
	geminiIdle.ReportedState = "idle"
	geminiBlocked := gemini
	geminiBlocked.ReportedState, geminiBlocked.Message = "blocked", "Allow Shell(make)?"
	geminiBlockedCustom := geminiBlocked
	geminiBlockedCustom.Source = "my-gemini-hooks"
	copilot := report.Record{Source: "integration:copilot", Kind: "copilot", ReportedState: "blocked", Detected: "copilot", DetectedState: "idle"}
	tests := []struct {
		name      string
		rec       report.Record
		restored  int64
		f         Facts
		wantAgent string
		wantState string
		wantRest  int64
		wantGone  bool
	}{
		{name: "unreadable processes decide nothing", rec: held, f: Facts{},
			wantAgent: "claude", wantState: "working"},
		{name: "shell at its prompt clears a held pane", rec: held, f: Facts{Known: true, AtPrompt: true},
			wantGone: true},
		{name: "shell at its prompt clears a report on an idle shell", rec: report.Record{Source: "s", Kind: "my-agent", ReportedState: "idle"},
			f: Facts{Known: true, AtPrompt: true}, wantGone: true},
		{name: "a restored record waits for its command", rec: held, restored: now - 5_000, f: Facts{Known: true, AtPrompt: true},
			wantAgent: "claude", wantState: "working", wantRest: now - 5_000},
		{name: "a restored record goes after the grace", rec: held, restored: now - 31_000, f: Facts{Known: true, AtPrompt: true},
			wantGone: true},
		{name: "the restored command started: the grace ends", rec: held, restored: now - 5_000, f: Facts{Known: true, Agent: "claude", Classified: true, State: "idle"},
			wantAgent: "claude", wantState: "working"},
		{name: "a dead pane has no agent", rec: held, restored: now, f: Facts{Known: true, Dead: true}, wantGone: true},
		// taw's own answer granted the permission Gemini CLI's hook reported blocked: it runs it,
		// though its screen draws no spinner yet.
		{name: "a permission taw's answer allowed runs", rec: geminiBlocked,
			f: Facts{Known: true, Agent: "gemini", Classified: true, State: "idle", Allowed: true}, wantAgent: "gemini", wantState: "working"},
		{name: "an answer's allow does not speak for another source", rec: geminiBlockedCustom,
			f: Facts{Known: true, Agent: "gemini", Classified: true, State: "idle", Allowed: true}, wantAgent: "gemini", wantState: "blocked"},
		{name: "a permission not allowed stays blocked until the screen says otherwise", rec: geminiBlocked,
			f: Facts{Known: true, Agent: "gemini", Classified: true, State: "idle"}, wantAgent: "gemini", wantState: "blocked"},
		// taw's own integration said the person quit (its release left the screen's reading), and
		// the process is still ending.
		{name: "an agent quit by its integration's word is gone while its process ends", rec: screen,
			f: Facts{Known: true, Agent: "codex", Classified: true, State: "working", Quit: true}, wantGone: true},
		{name: "a quit is nothing once a report holds the pane again", rec: held,
			f: Facts{Known: true, Agent: "claude", Classified: true, State: "idle", Quit: true}, wantAgent: "claude", wantState: "working"},
		{name: "a hook keeps its state over the screen", rec: held, f: Facts{Known: true, Agent: "claude", Classified: true, State: "idle"},
			wantAgent: "claude", wantState: "working"},
		{name: "a blocker on screen shows over the hook", rec: held, f: Facts{Known: true, Agent: "claude", Classified: true, State: "blocked"},
			wantAgent: "claude", wantState: "blocked"},
		{name: "no hook: the screen decides", rec: screen, f: Facts{Known: true, Agent: "codex", Classified: true, State: "blocked"},
			wantAgent: "codex", wantState: "blocked"},
		{name: "a screen rule that says nothing keeps the state", rec: screen, f: Facts{Known: true, Agent: "codex", Classified: true, State: ""},
			wantAgent: "codex", wantState: "working"},
		{name: "another program in front: no detected agent", rec: screen, f: Facts{Known: true},
			wantAgent: "", wantState: ""},
		{name: "a new agent starts unclassified (idle)", rec: screen, f: Facts{Known: true, Agent: "claude"},
			wantAgent: "claude", wantState: "idle"},
		{name: "the prompt for two looks corrects taw's own hook's working", rec: own, f: prompt,
			wantAgent: "claude", wantState: "idle"},
		{name: "the prompt for two looks corrects taw's own hook's blocked", rec: ownBlocked, f: prompt,
			wantAgent: "claude", wantState: "idle"},
		{name: "one look is not enough", rec: own, f: with(prompt, func(f *Facts) { f.ScreenLooks = 1 }),
			wantAgent: "claude", wantState: "working"},
		{name: "two looks in an instant are not enough", rec: own, f: with(prompt, func(f *Facts) { f.ScreenFor = 100 }),
			wantAgent: "claude", wantState: "working"},
		{name: "a screen not redrawn between two looks corrects sooner", rec: own, f: with(prompt, func(f *Facts) { f.ScreenFor, f.ScreenStill = CorrectForStill, true }),
			wantAgent: "claude", wantState: "idle"},
		{name: "a screen redrawn between them waits the whole while", rec: own, f: with(prompt, func(f *Facts) { f.ScreenFor = CorrectForStill }),
			wantAgent: "claude", wantState: "working"},
		{name: "a still screen still needs two looks", rec: own, f: with(prompt, func(f *Facts) { f.ScreenLooks, f.ScreenFor, f.ScreenStill = 1, CorrectForStill, true }),
			wantAgent: "claude", wantState: "working"},
		{name: "a still screen does not correct a report just taken", rec: own, f: with(prompt, func(f *Facts) { f.ScreenFor, f.ScreenStill, f.ReportAge = CorrectForStill, true, 400 }),
			wantAgent: "claude", wantState: "working"},
		{name: "a fresh report the screen has shown is corrected", rec: own, f: with(prompt, func(f *Facts) { f.ReportAge, f.CaughtUp = 400, true }),
			wantAgent: "claude", wantState: "idle"},
		{name: "a report just taken is not corrected", rec: own, f: with(prompt, func(f *Facts) { f.ReportAge = 400 }),
			wantAgent: "claude", wantState: "working"},
		{name: "another source keeps the contract: never corrected", rec: custom, f: prompt,
			wantAgent: "claude", wantState: "working"},
		{name: "a hook that reports every change is not corrected", rec: opencode, f: with(prompt, func(f *Facts) { f.Agent = "opencode" }),
			wantAgent: "opencode", wantState: "working"},
		{name: "another agent on screen does not correct the hook", rec: own, f: with(prompt, func(f *Facts) { f.Agent = "codex" }),
			wantAgent: "claude", wantState: "working"},
		{name: "a spinner after an allowed permission corrects blocked to working", rec: ownBlocked,
			f:         with(prompt, func(f *Facts) { f.State, f.ScreenState = "working", "working" }),
			wantAgent: "claude", wantState: "working"},
		{name: "after taw's answer took the dialog, a spinner corrects blocked at once", rec: ownBlocked,
			f: with(prompt, func(f *Facts) {
				f.State, f.ScreenState, f.ScreenFor, f.ReportAge, f.Answered = "working", "working", 300, 600, true
			}),
			wantAgent: "claude", wantState: "working"},
		{name: "without an answer taken, the same screen waits", rec: ownBlocked,
			f:         with(prompt, func(f *Facts) { f.State, f.ScreenState, f.ScreenFor, f.ReportAge = "working", "working", 300, 600 }),
			wantAgent: "claude", wantState: "blocked"},
		{name: "an answer taken still needs two looks", rec: ownBlocked,
			f:         with(prompt, func(f *Facts) { f.State, f.ScreenState, f.ScreenLooks, f.Answered = "working", "working", 1, true }),
			wantAgent: "claude", wantState: "blocked"},
		{name: "the screen never corrects working to blocked", rec: own,
			f:         with(prompt, func(f *Facts) { f.State, f.ScreenState = "blocked", "blocked" }),
			wantAgent: "claude", wantState: "blocked"},
		{name: "pi's retry line corrects its hook's idle to working", rec: piIdle,
			f:         with(prompt, func(f *Facts) { f.Agent, f.State, f.ScreenState = "pi", "working", "working" }),
			wantAgent: "pi", wantState: "working"},
		{name: "claude's idle is never corrected to working", rec: ownIdle,
			f:         with(prompt, func(f *Facts) { f.State, f.ScreenState = "working", "working" }),
			wantAgent: "claude", wantState: "idle"},
		{name: "gemini's working is not corrected: its hooks end every turn", rec: gemini,
			f:         with(prompt, func(f *Facts) { f.Agent = "gemini" }),
			wantAgent: "gemini", wantState: "working"},
		{name: "gemini's spinner corrects an idle its hooks left while an allowed command runs", rec: geminiIdle,
			f:         with(prompt, func(f *Facts) { f.Agent, f.State, f.ScreenState = "gemini", "working", "working" }),
			wantAgent: "gemini", wantState: "working"},
		{name: "copilot's prompt corrects its blocked", rec: copilot,
			f:         with(prompt, func(f *Facts) { f.Agent = "copilot" }),
			wantAgent: "copilot", wantState: "idle"},
		{name: "a blocker on screen still wins over taw's own hook", rec: own, f: with(prompt, func(f *Facts) { f.State = "blocked" }),
			wantAgent: "claude", wantState: "blocked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Decide(tt.rec, tt.restored, tt.f, now, grace)
			agent, state := d.Record.Effective()
			if agent != tt.wantAgent || state != tt.wantState || d.Restored != tt.wantRest || d.Gone != tt.wantGone {
				t.Errorf("got %q %q restored=%d gone=%t (%s), want %q %q restored=%d gone=%t",
					agent, state, d.Restored, d.Gone, d.Why, tt.wantAgent, tt.wantState, tt.wantRest, tt.wantGone)
			}
			if tt.rec.Message != "" && state == "idle" && d.Record.Message != "" {
				t.Errorf("corrected to idle but the message %q stays", d.Record.Message)
			}
			if d.Gone {
				r := d.Record
				if len(r.Resume) > 0 || r.SessionID != "" || r.Source != "" || r.Detected != "" {
					t.Errorf("gone but the record keeps %+v", r)
				}
				if _, ok := r.Seq.Last("s"); ok {
					t.Errorf("gone but the holder's seq numbers stay: %v", r.Seq)
				}
			}
		})
	}
}
