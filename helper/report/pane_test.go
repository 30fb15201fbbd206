package report

import (
	"reflect"
	"testing"
)

func state(source, agent, st string, seq *uint64) Report {
	return Report{Verb: ReportAgent, Source: source, Agent: agent, State: st, Seq: seq}
}

func apply(t *testing.T, r Record, reps ...Report) (Record, Outcome) {
	t.Helper()
	var out Outcome
	for _, rep := range reps {
		r, out = Apply(r, rep)
	}
	return r, out
}

func TestApplyReportAgentHoldsThePane(t *testing.T) {
	r, out := apply(t, Record{}, state("my-agent", "my-agent", StateWorking, u(1)))
	if !out.InOrder || out.Code != "" {
		t.Fatalf("outcome = %+v", out)
	}
	if agent, st := r.Effective(); agent != "my-agent" || st != StateWorking {
		t.Fatalf("effective = %s %s", agent, st)
	}
	if r.Source != "my-agent" || r.Kind != "my-agent" {
		t.Fatalf("holder = %q/%q", r.Source, r.Kind)
	}
}

func TestApplyLateReportIsNotTaken(t *testing.T) {
	r, _ := apply(t, Record{}, state("s", "a", StateIdle, u(5)))
	for _, late := range []Report{state("s", "a", StateWorking, u(5)), state("s", "a", StateWorking, u(4)), state("s", "a", StateWorking, nil)} {
		got, out := Apply(r, late)
		if out.InOrder {
			t.Errorf("late report %+v was taken", late)
		}
		if !reflect.DeepEqual(got, r) {
			t.Errorf("late report changed the record: %+v", got)
		}
	}
}

func TestApplyUnsequencedSourceMayStayUnsequenced(t *testing.T) {
	r, out := apply(t, Record{}, state("s", "a", StateIdle, nil), state("s", "a", StateWorking, nil))
	if !out.InOrder || r.ReportedState != StateWorking {
		t.Fatalf("unsequenced reports from an unsequenced source: %+v %+v", out, r)
	}
}

func TestApplyAnotherSourceTakesThePane(t *testing.T) {
	withCmd := state("a", "agent-a", StateIdle, u(10))
	withCmd.Resume = []string{"agent-a", "--resume", "1"}
	r, _ := apply(t, Record{}, withCmd, state("b", "agent-b", StateWorking, u(1)))
	if r.Source != "b" || r.Kind != "agent-b" {
		t.Fatalf("holder = %q/%q", r.Source, r.Kind)
	}
	if r.Resume != nil {
		t.Errorf("the first source's command survived another source taking the pane: %q", r.Resume)
	}
	// a's numbers went with its agent: a later run of a may start from any number.
	if _, ok := r.Seq.Last("a"); ok {
		t.Errorf("a's numbers were kept after b took the pane")
	}
	if _, out := Apply(r, state("a", "agent-a", StateIdle, u(1))); !out.InOrder {
		t.Errorf("a new run of a starting from 1 was not taken")
	}
}

func TestApplyAnotherAgentFromTheSameSourceDropsTheCommand(t *testing.T) {
	withCmd := state("s", "one", StateIdle, u(1))
	withCmd.Resume = []string{"one", "--resume", "x"}
	sid := "x"
	withCmd.SessionID = &sid
	r, _ := apply(t, Record{}, withCmd, state("s", "two", StateIdle, u(2)))
	if r.Resume != nil || r.SessionID != "" {
		t.Errorf("command %q and session %q kept for another agent", r.Resume, r.SessionID)
	}
}

func TestApplyResumeRules(t *testing.T) {
	cmd := []string{"my-agent", "--resume", "s1"}
	session := func(source, agent string, seq uint64) Report {
		sid := "s1"
		return Report{Verb: ReportSession, Source: source, Agent: agent, Seq: u(seq), SessionID: &sid, Resume: cmd}
	}
	t.Run("the holder sets its command with report-agent-session", func(t *testing.T) {
		r, out := apply(t, Record{}, state("s", "my-agent", StateIdle, u(1)), session("s", "my-agent", 2))
		if out.Code != "" || !reflect.DeepEqual(r.Resume, cmd) || r.SessionID != "s1" {
			t.Fatalf("out=%+v resume=%q session=%q", out, r.Resume, r.SessionID)
		}
	})
	t.Run("a source that does not hold the pane: resume_not_accepted, the rest applied", func(t *testing.T) {
		r, out := apply(t, Record{}, state("holder", "my-agent", StateIdle, u(1)), session("other", "my-agent", 7))
		if !out.InOrder || out.Code != "resume_not_accepted" {
			t.Fatalf("outcome = %+v", out)
		}
		if r.Resume != nil {
			t.Errorf("command applied: %q", r.Resume)
		}
		if r.SessionID != "s1" {
			t.Errorf("session id not applied: %q", r.SessionID)
		}
		if n, _ := r.Seq.Last("other"); n != 7 {
			t.Errorf("seq not recorded: %d", n)
		}
	})
	t.Run("no hook holds the pane and nothing is detected: not accepted", func(t *testing.T) {
		_, out := apply(t, Record{}, session("s", "my-agent", 1))
		if out.Code != "resume_not_accepted" {
			t.Fatalf("outcome = %+v", out)
		}
	})
	t.Run("no hook holds the pane and the detected agent sets its own", func(t *testing.T) {
		r, out := apply(t, Record{Detected: "my-agent", DetectedState: StateIdle}, session("s", "my-agent", 1))
		if out.Code != "" || !reflect.DeepEqual(r.Resume, cmd) {
			t.Fatalf("out=%+v resume=%q", out, r.Resume)
		}
	})
	t.Run("another detected agent may not", func(t *testing.T) {
		_, out := apply(t, Record{Detected: "codex"}, session("s", "my-agent", 1))
		if out.Code != "resume_not_accepted" {
			t.Fatalf("outcome = %+v", out)
		}
	})
	t.Run("a state report carries the command with it", func(t *testing.T) {
		rep := state("s", "my-agent", StateIdle, u(1))
		rep.Resume = cmd
		r, out := apply(t, Record{}, rep)
		if out.Code != "" || !reflect.DeepEqual(r.Resume, cmd) || r.ResumeSource != "s" {
			t.Fatalf("out=%+v resume=%q", out, r.Resume)
		}
	})
	t.Run("a later state report without a command keeps it", func(t *testing.T) {
		rep := state("s", "my-agent", StateIdle, u(1))
		rep.Resume = cmd
		r, _ := apply(t, Record{}, rep, state("s", "my-agent", StateWorking, u(2)))
		if !reflect.DeepEqual(r.Resume, cmd) {
			t.Fatalf("resume = %q", r.Resume)
		}
	})
}

func TestApplyRelease(t *testing.T) {
	rep := state("s", "my-agent", StateWorking, u(5))
	rep.Resume = []string{"my-agent"}
	held, _ := apply(t, Record{Detected: "claude", DetectedState: StateBlocked}, rep)

	r, out := Apply(held, Report{Verb: ReleaseAgent, Source: "s", Agent: "my-agent", Seq: u(6)})
	if !out.InOrder {
		t.Fatalf("release not taken")
	}
	if r.Source != "" || r.Kind != "" || r.Resume != nil {
		t.Fatalf("release left %+v", r)
	}
	// The pane goes back to the screen at once.
	if agent, st := r.Effective(); agent != "claude" || st != StateBlocked {
		t.Errorf("after release effective = %s %s, want the screen's claude blocked", agent, st)
	}
	if _, ok := r.Seq.Last("s"); ok {
		t.Errorf("the released source's numbers were kept")
	}

	// A release from a source that does not hold the pane hands nothing back.
	r, out = Apply(held, Report{Verb: ReleaseAgent, Source: "other", Agent: "my-agent", Seq: u(1)})
	if !out.InOrder || r.Source != "s" {
		t.Errorf("a stranger's release changed the holder: %+v", r)
	}
	// Nor does one for another agent.
	r, _ = Apply(held, Report{Verb: ReleaseAgent, Source: "s", Agent: "other-agent", Seq: u(7)})
	if r.Source != "s" || r.Resume == nil {
		t.Errorf("a release naming another agent released: %+v", r)
	}
	// An out-of-order release is not taken.
	if _, out := Apply(held, Report{Verb: ReleaseAgent, Source: "s", Agent: "my-agent", Seq: u(5)}); out.InOrder {
		t.Errorf("a release with an old number was taken")
	}
}

func TestAgentGone(t *testing.T) {
	rep := state("s", "my-agent", StateWorking, u(5))
	rep.Resume = []string{"my-agent"}
	r, _ := apply(t, Record{Detected: "my-agent"}, rep)
	r.Seq = r.Seq.Record("unrelated", 3)
	r = AgentGone(r)
	if agent, _ := r.Effective(); agent != "" || r.Resume != nil {
		t.Fatalf("agent gone left %+v", r)
	}
	if _, ok := r.Seq.Last("s"); ok {
		t.Errorf("the agent's source kept its numbers")
	}
	if _, ok := r.Seq.Last("unrelated"); !ok {
		t.Errorf("an unrelated source lost its numbers")
	}
}

func TestEffective(t *testing.T) {
	tests := []struct {
		name              string
		r                 Record
		wantAgent, wantSt string
	}{
		{"nothing", Record{}, "", ""},
		{"screen only", Record{Detected: "codex", DetectedState: StateWorking}, "codex", StateWorking},
		{"screen with no verdict is idle", Record{Detected: "codex"}, "codex", StateIdle},
		{"hook wins over screen", Record{Source: "s", Kind: "codex", ReportedState: StateIdle, Detected: "codex", DetectedState: StateWorking}, "codex", StateIdle},
		{"a blocker on screen for the same agent shows", Record{Source: "s", Kind: "codex", ReportedState: StateWorking, Detected: "codex", DetectedState: StateBlocked}, "codex", StateBlocked},
		{"not for another agent", Record{Source: "s", Kind: "mine", ReportedState: StateWorking, Detected: "codex", DetectedState: StateBlocked}, "mine", StateWorking},
		{"held with no state yet", Record{Source: "s", Kind: "mine"}, "mine", StateUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, s := tt.r.Effective()
			if a != tt.wantAgent || s != tt.wantSt {
				t.Errorf("Effective() = %q %q, want %q %q", a, s, tt.wantAgent, tt.wantSt)
			}
		})
	}
}

// A holder that has not said its state yet (a restored record is unknown until the agent
// reports) shows the state the screen of the same agent shows; a reported state wins over it.
func TestEffectiveUnknownHolderShowsTheScreen(t *testing.T) {
	for _, tt := range []struct {
		reported, detected, detectedState, want string
	}{
		{StateUnknown, "claude", StateIdle, StateIdle},
		{"", "claude", StateWorking, StateWorking},
		{StateUnknown, "claude", "", StateUnknown},       // the screen says nothing either
		{StateUnknown, "codex", StateIdle, StateUnknown}, // another agent's screen is not its word
		{StateWorking, "claude", StateIdle, StateWorking},
	} {
		r := Record{Source: "integration:claude", Kind: "claude", ReportedState: tt.reported, Detected: tt.detected, DetectedState: tt.detectedState}
		if _, got := r.Effective(); got != tt.want {
			t.Errorf("reported %q, screen %s %q: state %q, want %q", tt.reported, tt.detected, tt.detectedState, got, tt.want)
		}
	}
}

func TestApplyMessageHintKeepsTheSpecificText(t *testing.T) {
	seq := uint64(1)
	msg := func(s string) *string { return &s }
	r, _ := Apply(Record{}, Report{Verb: ReportAgent, Source: "s", Agent: "claude", State: StateBlocked, Message: msg("Allow Bash(make)?"), Seq: &seq})
	seq++
	hint := Report{Verb: ReportAgent, Source: "s", Agent: "claude", State: StateBlocked, Message: msg("Claude needs your permission to use Bash"), MessageHint: true, Seq: &seq}
	if got, _ := Apply(r, hint); got.Message != "Allow Bash(make)?" {
		t.Errorf("a hint replaced the specific message: %q", got.Message)
	}
	// From another state, or over no message, the hint is the best there is.
	r.ReportedState = StateWorking
	if got, _ := Apply(r, hint); got.Message != "Claude needs your permission to use Bash" {
		t.Errorf("a hint after working: %q", got.Message)
	}
	r.ReportedState, r.Message = StateBlocked, ""
	if got, _ := Apply(r, hint); got.Message != "Claude needs your permission to use Bash" {
		t.Errorf("a hint over no message: %q", got.Message)
	}
}

func TestAtWorkIsWorkingOrBlocked(t *testing.T) {
	for state, want := range map[string]bool{StateWorking: true, StateBlocked: true, StateIdle: false, StateUnknown: false, "": false, "done": false} {
		if got := AtWork(state); got != want {
			t.Errorf("AtWork(%q) = %t, want %t", state, got, want)
		}
	}
}
