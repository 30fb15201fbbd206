package tmux

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestFeaturesOf(t *testing.T) {
	for v, want := range map[string]Features{
		"3.2a":     {DeadSignal: false, LiteralMessage: false, ClientMessage: false, PopupTitle: false},
		"3.3a":     {DeadSignal: true, LiteralMessage: false, ClientMessage: true, PopupTitle: true},
		"3.4":      {DeadSignal: true, LiteralMessage: true, ClientMessage: true, PopupTitle: true},
		"3.5a":     {DeadSignal: true, LiteralMessage: true, ClientMessage: true, PopupTitle: true},
		"3.7c":     {DeadSignal: true, LiteralMessage: true, ClientMessage: true, PopupTitle: true, PasteEscapes: true},
		"next-3.8": {DeadSignal: true, LiteralMessage: true, ClientMessage: true, PopupTitle: true, PasteEscapes: true},
		"master":   {DeadSignal: true, LiteralMessage: true, ClientMessage: true, PopupTitle: true, PasteEscapes: true},
		"4.0":      {DeadSignal: true, LiteralMessage: true, ClientMessage: true, PopupTitle: true, PasteEscapes: true},
	} {
		want.Version = v
		if got := FeaturesOf(v); got != want {
			t.Errorf("FeaturesOf(%q) = %+v, want %+v", v, got, want)
		}
	}
}

// The server on PATH has what its version says: a pane killed by a signal names it exactly when
// DeadSignal says so.
func TestFeaturesMatchTheServer(t *testing.T) {
	c := testServer(t)
	ctx := context.Background()
	v, err := c.Output(ctx, "display-message", "-p", VersionFormat)
	if err != nil {
		t.Fatal(err)
	}
	f, err := c.Features(ctx)
	if err != nil || f.Version != v {
		t.Fatalf("Features = %+v (%v), want those of %s", f, err, v)
	}
	// A message to a named client is taken where ClientMessage says so (no client is attached:
	// the named one is not found, which is another error than 3.2a's usage).
	_, err = c.Run(ctx, Cmd{"display-message", "-c", "/dev/null", "-d", "1", "x"})
	if usage := err != nil && strings.Contains(err.Error(), "usage"); usage == f.ClientMessage {
		t.Errorf("tmux %s: display-message -c: %v; ClientMessage is %v", v, err, f.ClientMessage)
	}
	if _, err := c.Run(ctx, Cmd{"set-option", "-g", "remain-on-exit", "on"}, Cmd{"new-window", "-d", "-n", "killed", "kill -9 $$"}); err != nil {
		t.Fatal(err)
	}
	var sig string
	waitFor(t, "the killed pane to be dead", func() bool {
		out, _ := c.Output(ctx, "display-message", "-p", "-t", ":killed", "#{pane_dead}:#{pane_dead_signal}")
		sig = out
		return len(out) > 1 && out[:2] == "1:"
	})
	if got := sig != "1:"; got != f.DeadSignal {
		t.Errorf("tmux %s printed %q for a pane killed by SIGKILL; DeadSignal is %v", v, sig, f.DeadSignal)
	}
	_, err = c.Run(ctx, Cmd{"display-popup", "-T", "x", "-E", "true"})
	if usage := err != nil && strings.Contains(err.Error(), "usage"); usage == f.PopupTitle {
		t.Errorf("tmux %s: display-popup -T: %v; PopupTitle is %v", v, err, f.PopupTitle)
	}
	_, err = c.Run(ctx, Cmd{"set-buffer", "-b", "tawf", "x"}, Cmd{"paste-buffer", "-S", "-d", "-b", "tawf", "-t", "main"})
	if usage := err != nil && (strings.Contains(err.Error(), "usage") || strings.Contains(err.Error(), "unknown flag")); usage == f.PasteEscapes {
		t.Errorf("tmux %s: paste-buffer -S: %v; PasteEscapes is %v", v, err, f.PasteEscapes)
	}
	if f.LiteralMessage {
		if _, err := c.Run(ctx, Cmd{"display-message", "-l", "-p", "x"}); err != nil {
			t.Errorf("tmux %s refused display-message -l: %v", v, err)
		}
	} else if _, err := c.Run(ctx, Cmd{"display-message", "-l", "-p", "x"}); err == nil {
		t.Errorf("tmux %s took display-message -l; LiteralMessage is false", v)
	}
}

// waitFor waits, bounded, until cond holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 30s for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
