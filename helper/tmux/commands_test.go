package tmux

import (
	"context"
	"reflect"
	"testing"
)

func TestListAllPanes(t *testing.T) {
	// Each format and the call that lists it for every pane.
	for format, want := range map[string]Cmd{
		"#{pane_id}":              {"list-panes", "-a", "-F", "#{pane_id}"},
		"P\x1f#{pane_pid} #{x} y": {"list-panes", "-a", "-F", "P\x1f#{pane_pid} #{x} y"},
		"":                        {"list-panes", "-a", "-F", ""},
	} {
		if got := ListAllPanes(format); !reflect.DeepEqual(got, want) {
			t.Errorf("ListAllPanes(%q) = %q, want %q", format, got, want)
		}
	}
}

// A session holding a zoomed window ends through KillSession, and the server lives on (tmux 3.4's
// kill-session would crash it).
func TestKillSessionWithAZoomedWindow(t *testing.T) {
	c := testServer(t)
	ctx := context.Background()
	if _, err := c.Run(ctx, Cmd{"new-session", "-d", "-s", "work"}, Cmd{"split-window", "-t", "work"},
		Cmd{"resize-pane", "-Z", "-t", "work"}, Cmd{"new-window", "-d", "-t", "work"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(ctx, KillSession("work")...); err != nil {
		t.Fatal(err)
	}
	out, err := c.Output(ctx, "list-sessions", "-F", "#{session_name}")
	if err != nil || out != "main" {
		t.Fatalf("sessions after the kill: %q (%v), want only main", out, err)
	}
}
