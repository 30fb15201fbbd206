package tmux

import (
	"context"
	"strings"
	"testing"
)

// A bound key's lines come back, an unbound key's none, whatever the release prints for one key.
func TestKeyBindings(t *testing.T) {
	c := testServer(t)
	ctx := context.Background()
	if _, err := c.Run(ctx, Cmd{"bind-key", "-T", "prefix", "A", "display-message", "mine"},
		Cmd{"bind-key", "-T", "prefix", "C-g", "display-message", "ctrl"},
		Cmd{"bind-key", "-T", "mytable", "M-x", "display-message", "meta"}); err != nil {
		t.Fatal(err)
	}
	for _, k := range []struct{ table, key, want string }{
		{"prefix", "A", "display-message mine"},
		{"prefix", "C-g", "display-message ctrl"},
		{"prefix", "^G", "display-message ctrl"},
		{"mytable", "M-x", "display-message meta"},
		{"prefix", "\"", "split-window"},
		{"prefix", "a", ""},
		{"prefix", "F9", ""},
		{"nosuchtable", "A", ""},
	} {
		got, err := c.KeyBindings(ctx, k.table, k.key)
		if err != nil {
			t.Fatalf("%s %s: %v", k.table, k.key, err)
		}
		if k.want == "" && got != "" || k.want != "" && (!strings.Contains(got, k.want) || strings.Count(got, "\n") != 0) {
			t.Errorf("KeyBindings(%s, %s) = %q, want one line with %q", k.table, k.key, got, k.want)
		}
	}
}
