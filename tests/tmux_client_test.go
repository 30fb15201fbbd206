package tests

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/tmux"
)

// TestClientProtocolMatchesTheBinary runs the same commands over tmux's client protocol (what taw
// does) and through the tmux binary, against one real server, and wants the same answers.
func TestClientProtocolMatchesTheBinary(t *testing.T) {
	sock := t.TempDir()
	name, stop := startTmux(t, "client", sock, 80, 24)
	defer stop()

	ctx := context.Background()
	native := &tmux.Client{Global: []string{"-L", name}}
	binary := &tmux.Client{Bin: "tmux", Global: []string{"-L", name}}

	big := strings.Repeat("x", 3000)
	cases := []struct {
		name string
		cmds []tmux.Cmd
	}{
		{"display", []tmux.Cmd{{"display-message", "-p", "-t", "s:0.0", "#{session_name} #{window_index} é 日本"}}},
		{"several commands in one call", []tmux.Cmd{{"set-option", "-g", "@a", "1"}, {"display-message", "-p", "#{@a}"}, {"display-message", "-p", "two"}}},
		{"a value ending in ;", []tmux.Cmd{{"set-option", "-g", "@b", "x;"}, {"show-options", "-gv", "@b"}}},
		{"output larger than one message", []tmux.Cmd{{"set-option", "-g", "@big", strings.Repeat(big, 5)}, {"show-options", "-gv", "@big"}, {"show-options", "-gv", "@big"}, {"show-options", "-gv", "@big"}, {"show-options", "-gv", "@big"}, {"show-options", "-gv", "@big"}, {"show-options", "-gv", "@big"}, {"show-options", "-gv", "@big"}}},
		{"a batch split across calls", func() []tmux.Cmd {
			var cmds []tmux.Cmd
			for i := 0; i < 40; i++ {
				cmds = append(cmds, tmux.Cmd{"set-option", "-g", fmt.Sprintf("@k%d", i), big})
			}
			return append(cmds, tmux.Cmd{"show-options", "-gv", "@k39"})
		}()},
		{"list", []tmux.Cmd{{"list-panes", "-a", "-F", "#{pane_id} #{pane_width}x#{pane_height}"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := native.Run(ctx, tc.cmds...)
			if err != nil {
				t.Fatalf("over the socket: %v", err)
			}
			want, err := binary.Run(ctx, tc.cmds...)
			if err != nil {
				t.Fatalf("through the binary: %v", err)
			}
			if got != want {
				t.Errorf("over the socket %q\nthrough the binary %q", abbrev(got), abbrev(want))
			}
		})
	}

	errCases := []struct {
		name string
		cmd  tmux.Cmd
		code string
	}{
		{"unknown pane", tmux.Cmd{"set-option", "-p", "-t", "%99", "@x", "1"}, "pane_not_found"},
		{"unknown session", tmux.Cmd{"list-windows", "-t", "nosuch"}, "pane_not_found"},
		{"unknown command", tmux.Cmd{"no-such-command"}, "tmux_error"},
	}
	for _, tc := range errCases {
		t.Run(tc.name, func(t *testing.T) {
			_, nerr := native.Run(ctx, tc.cmd)
			_, berr := binary.Run(ctx, tc.cmd)
			ne, ok1 := nerr.(*tmux.Error)
			be, ok2 := berr.(*tmux.Error)
			if !ok1 || !ok2 {
				t.Fatalf("errors %v / %v", nerr, berr)
			}
			if ne.Code != tc.code || be.Code != tc.code || ne.Stderr != be.Stderr {
				t.Errorf("over the socket %s %q, through the binary %s %q, want code %s", ne.Code, ne.Stderr, be.Code, be.Stderr, tc.code)
			}
		})
	}

	t.Run("no server", func(t *testing.T) {
		gone := &tmux.Client{Global: []string{"-L", name + "-none"}}
		_, err := gone.Run(ctx, tmux.Cmd{"display-message", "-p", "x"})
		if e, ok := err.(*tmux.Error); !ok || e.Code != "server_not_running" {
			t.Fatalf("err = %v, want server_not_running", err)
		}
	})
}

func abbrev(s string) string {
	if len(s) > 200 {
		return s[:100] + "…" + s[len(s)-100:]
	}
	return s
}
