package watch

import "testing"

func TestEndsTurn(t *testing.T) {
	for _, c := range []struct {
		fa, fs, ta, ts string
		setup, gone    bool
		want           bool
	}{
		{fa: "claude", fs: "working", ta: "claude", ts: "idle", want: true},
		{fa: "claude", fs: "blocked", ta: "claude", ts: "idle", want: true},
		{fa: "claude", fs: "idle", ta: "claude", ts: "idle"},
		{fa: "claude", fs: "working", ta: "claude", ts: "blocked"},
		{fa: "claude", fs: "working", ta: "codex", ts: "idle"}, // another agent: not a turn of this one
		{ta: "claude", ts: "idle"},                             // an agent that appeared idle
		{fa: "claude", fs: "unknown", ta: "claude", ts: "idle"},
		{fa: "gemini", fs: "blocked", ta: "gemini", ts: "idle", setup: true}, // a trust dialog answered
		{fa: "claude", fs: "working", gone: true},
	} {
		tr := Transition{FromAgent: c.fa, FromState: c.fs, ToAgent: c.ta, ToState: c.ts, FromSetup: c.setup, Gone: c.gone}
		if got := tr.EndsTurn(); got != c.want {
			t.Errorf("%+v: EndsTurn() = %v, want %v", c, got, c.want)
		}
	}
}
