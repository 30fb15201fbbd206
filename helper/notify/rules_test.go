package notify

import (
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/watch"
)

func TestDecide(t *testing.T) {
	tests := []struct {
		name                   string
		fromA, fromS, toA, toS string
		gone                   bool
		want                   Kind // "" for none
	}{
		{"working to blocked needs a decision", "claude", "working", "claude", "blocked", false, KindBlocked},
		{"idle to blocked needs a decision", "claude", "idle", "claude", "blocked", false, KindBlocked},
		{"a pane that appears blocked", "", "", "claude", "blocked", false, KindBlocked},
		{"another agent, blocked", "codex", "blocked", "claude", "blocked", false, KindBlocked},
		{"working to idle finished", "claude", "working", "claude", "idle", false, KindFinished},
		{"blocked to idle finished", "claude", "blocked", "claude", "idle", false, KindFinished},
		{"unknown to idle is not a turn", "claude", "unknown", "claude", "idle", false, ""},
		// A new agent idle at its prompt finished nothing.
		{"another agent, idle", "codex", "working", "claude", "idle", false, ""},
		{"idle to working", "claude", "idle", "claude", "working", false, ""},
		{"agent gone", "claude", "working", "", "", false, ""},
		{"pane closed", "claude", "blocked", "", "", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Decide(watch.Transition{FromAgent: tt.fromA, FromState: tt.fromS, ToAgent: tt.toA, ToState: tt.toS, Gone: tt.gone})
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("Decide = %q, %v; want %q", got, ok, tt.want)
			}
		})
	}
}

var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func pane(id, agent, state string) panestate.Pane {
	return panestate.Pane{ID: id, SessionName: "main", WindowIndex: 1, Options: map[string]string{
		panestate.OptName: agent, panestate.OptState: state,
		panestate.OptSource: "hook", panestate.OptReportedKind: agent, panestate.OptMessage: "Allow Bash?",
	}}
}

func tr(id, fromS, toS string, at time.Time) watch.Transition {
	return watch.Transition{PaneID: id, FromAgent: "claude", FromState: fromS, ToAgent: "claude", ToState: toS, At: at}
}

func look(now time.Time, panes []panestate.Pane, ts ...watch.Transition) *watch.Look {
	return &watch.Look{Now: now, Panes: panes, Transitions: ts}
}

func cfg() config.Notify { return config.Default().Notify }

func TestPlannerWaitsForTheRecheckDelay(t *testing.T) {
	var p Planner
	blocked := []panestate.Pane{pane("%1", "claude", "blocked")}
	send, _ := p.Plan(look(t0, blocked, tr("%1", "working", "blocked", t0)), cfg())
	if len(send) != 0 {
		t.Fatalf("sent before the delay: %v", send)
	}
	send, _ = p.Plan(look(t0.Add(500*time.Millisecond), blocked), cfg())
	if len(send) != 0 {
		t.Fatalf("sent before the delay: %v", send)
	}
	send, _ = p.Plan(look(t0.Add(time.Second), blocked), cfg())
	if len(send) != 1 || send[0].Kind != KindBlocked {
		t.Fatalf("send = %v, want one blocked", send)
	}
	if got, want := send[0].Text(), "Claude Code needs a decision in main:1.0: Allow Bash?"; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
	send, _ = p.Plan(look(t0.Add(2*time.Second), blocked), cfg())
	if len(send) != 0 {
		t.Errorf("sent twice for one transition: %v", send)
	}
}

func TestPlannerDropsAFlicker(t *testing.T) {
	var p Planner
	p.Plan(look(t0, []panestate.Pane{pane("%1", "claude", "blocked")}, tr("%1", "working", "blocked", t0)), cfg())
	working := []panestate.Pane{pane("%1", "claude", "working")}
	p.Plan(look(t0.Add(300*time.Millisecond), working, tr("%1", "blocked", "working", t0.Add(300*time.Millisecond))), cfg())
	send, _ := p.Plan(look(t0.Add(2*time.Second), working), cfg())
	if len(send) != 0 || p.Pending() != 0 {
		t.Errorf("a blocked state that did not hold was notified: %v (pending %d)", send, p.Pending())
	}
}

func TestPlannerChecksTheStateStillHolds(t *testing.T) {
	// The watcher may miss the way back: the pane's state at the due look decides.
	var p Planner
	p.Plan(look(t0, []panestate.Pane{pane("%1", "claude", "idle")}, tr("%1", "working", "idle", t0)), cfg())
	send, _ := p.Plan(look(t0.Add(time.Second), []panestate.Pane{pane("%1", "claude", "working")}), cfg())
	if len(send) != 0 {
		t.Errorf("notified a state the pane no longer has: %v", send)
	}
}

func TestPlannerSkips(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*config.Notify)
		clients []watch.Client
		wantWhy string
	}{
		{"in view of a focused client", nil, []watch.Client{{PaneID: "%1", Focused: true}}, "the pane is in view"},
		{"agent off", func(c *config.Notify) { c.Agents = map[string]bool{"claude": false} }, nil, "notifications are off for claude"},
		{"all off", func(c *config.Notify) { c.Enabled = false }, nil, "notifications are off"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := cfg()
			c.RecheckDelay.Duration = 0
			if tt.edit != nil {
				tt.edit(&c)
			}
			var p Planner
			l := look(t0, []panestate.Pane{pane("%1", "claude", "blocked")}, tr("%1", "working", "blocked", t0))
			l.Clients = tt.clients
			send, skipped := p.Plan(l, c)
			if len(send) != 0 || len(skipped) != 1 || skipped[0].Why != tt.wantWhy {
				t.Errorf("send %v skipped %v, want skipped because %q", send, skipped, tt.wantWhy)
			}
		})
	}
	t.Run("unfocused client does not count as looking", func(t *testing.T) {
		c := cfg()
		c.RecheckDelay.Duration = 0
		var p Planner
		l := look(t0, []panestate.Pane{pane("%1", "claude", "blocked")}, tr("%1", "working", "blocked", t0))
		l.Clients = []watch.Client{{PaneID: "%1", Focused: false}}
		if send, _ := p.Plan(l, c); len(send) != 1 {
			t.Errorf("send = %v, want one", send)
		}
	})
	t.Run("kind off", func(t *testing.T) {
		c := cfg()
		c.Finished = false
		var p Planner
		p.Plan(look(t0, []panestate.Pane{pane("%1", "claude", "idle")}, tr("%1", "working", "idle", t0)), c)
		if p.Pending() != 0 {
			t.Errorf("finished is off but a notification waits")
		}
	})
}

func TestPlannerRateLimit(t *testing.T) {
	c := cfg()
	c.RecheckDelay.Duration = 0
	var p Planner
	at := t0
	var sent int
	for i := 0; i < 4; i++ {
		s1, _ := p.Plan(look(at, []panestate.Pane{pane("%1", "claude", "blocked")}, tr("%1", "working", "blocked", at)), c)
		at = at.Add(time.Second)
		p.Plan(look(at, []panestate.Pane{pane("%1", "claude", "working")}, tr("%1", "blocked", "working", at)), c)
		at = at.Add(time.Second)
		sent += len(s1)
	}
	// Blocked at 0s, 2s, 4s, 6s with a 5s limit: sent at 0s and 6s.
	if sent != 2 {
		t.Errorf("sent %d blocked notifications in 8s, want 2", sent)
	}
	// Another pane is not limited by the first.
	s, _ := p.Plan(look(at, []panestate.Pane{pane("%2", "claude", "blocked")}, tr("%2", "working", "blocked", at)), c)
	if len(s) != 1 {
		t.Errorf("another pane was rate limited")
	}
}

func TestEscapes(t *testing.T) {
	n := Notification{Kind: KindBlocked, Display: "claude", Target: "main:1.0", Message: "Allow\x1b]0;x\x07 rm; ok?"}
	tests := []struct {
		protocol, passthrough, term, want string
	}{
		{"auto", "auto", "xterm-256color", "\x1b]9;claude needs a decision: main:1.0: Allow]0;x rm; ok?\x1b\\"},
		{"osc777", "off", "xterm", "\x1b]777;notify;claude needs a decision;main:1.0: Allow]0,x rm, ok?\x1b\\"},
		{"auto", "auto", "xterm-kitty", "\x1b]99;i=taw:d=0;claude needs a decision\x1b\\\x1b]99;i=taw:p=body;main:1.0: Allow]0;x rm; ok?\x1b\\"},
		{"osc9", "auto", "screen-256color", "\x1bPtmux;\x1b\x1b]9;claude needs a decision: main:1.0: Allow]0;x rm; ok?\x1b\x1b\\\x1b\\"},
		{"osc9", "on", "xterm", "\x1bPtmux;\x1b\x1b]9;claude needs a decision: main:1.0: Allow]0;x rm; ok?\x1b\x1b\\\x1b\\"},
	}
	for _, tt := range tests {
		if got := Escape(n, tt.protocol, tt.passthrough, tt.term); got != tt.want {
			t.Errorf("Escape(%s, %s, %s) = %q, want %q", tt.protocol, tt.passthrough, tt.term, got, tt.want)
		}
	}
}

func TestPlannerLeavesTheAnsweredQuestionOutOfFinished(t *testing.T) {
	c := cfg()
	c.RecheckDelay.Duration = 0
	var p Planner
	blocked := pane("%1", "claude", "blocked")
	if s, _ := p.Plan(look(t0, []panestate.Pane{blocked}, watch.Transition{PaneID: "%1", FromAgent: "claude", FromState: "working", ToAgent: "claude", ToState: "blocked", Pane: blocked, At: t0}), c); len(s) != 1 || s[0].Message != "Allow Bash?" {
		t.Fatalf("blocked = %v", s)
	}
	idle := pane("%1", "claude", "idle") // the message is still the question
	s, _ := p.Plan(look(t0.Add(time.Second), []panestate.Pane{idle}, watch.Transition{PaneID: "%1", FromAgent: "claude", FromState: "blocked", ToAgent: "claude", ToState: "idle", Pane: idle, At: t0.Add(time.Second)}), c)
	if len(s) != 1 || s[0].Message != "" || s[0].Text() != "Claude Code finished in main:1.0" {
		t.Errorf("finished = %+v", s)
	}
	// A message of its own is kept.
	idle.Options[panestate.OptMessage] = "all tests pass"
	working := pane("%1", "claude", "working")
	p.Plan(look(t0.Add(2*time.Second), []panestate.Pane{working}, watch.Transition{PaneID: "%1", FromAgent: "claude", FromState: "idle", ToAgent: "claude", ToState: "working", Pane: working}), c)
	s, _ = p.Plan(look(t0.Add(9*time.Second), []panestate.Pane{idle}, watch.Transition{PaneID: "%1", FromAgent: "claude", FromState: "working", ToAgent: "claude", ToState: "idle", Pane: idle, At: t0.Add(9 * time.Second)}), c)
	if len(s) != 1 || s[0].Message != "all tests pass" {
		t.Errorf("finished with a message = %+v", s)
	}
}

// An agent named like an OSC 9 sub-command ("4;3;50" would set a progress bar, "7;prog" run a
// program in ConEmu) still sends a plain notification.
func TestOSC9NeverStartsWithACommand(t *testing.T) {
	tests := []struct{ title, body, want string }{
		{"4;3;50 finished", "main:1.0", "\x1b]9;4,3;50 finished: main:1.0\x1b\\"},
		{"7;calc finished", "x", "\x1b]9;7,calc finished: x\x1b\\"},
		{";x", "y", "\x1b]9;,x: y\x1b\\"},
		{"claude 4;3", "y", "\x1b]9;claude 4;3: y\x1b\\"},
		{"4", "y", "\x1b]9;4: y\x1b\\"},
	}
	for _, tt := range tests {
		if got := OSC9(tt.title, tt.body); got != tt.want {
			t.Errorf("OSC9(%q, %q) = %q, want %q", tt.title, tt.body, got, tt.want)
		}
	}
}

func TestMarkupIsShownAsWritten(t *testing.T) {
	if got, want := markup(`<b>x</b> & <a href="http://e">y</a>`), `&lt;b&gt;x&lt;/b&gt; &amp; &lt;a href="http://e"&gt;y&lt;/a&gt;`; got != want {
		t.Errorf("markup = %q, want %q", got, want)
	}
}
