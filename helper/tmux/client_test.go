package tmux

import (
	"context"
	"reflect"
	"testing"
)

// Commands of one call end on their last argument, not with a ";" of their own, which tmux 3.3a
// keeps forever; an argument that would read differently keeps the ";" of its own.
func TestBatchesEndCommandsOnTheirLastArgument(t *testing.T) {
	c := &Client{Global: []string{"-L", "x"}}
	got := c.batches([]Cmd{
		{"set-option", "-p", "@a", "one"},
		{"set-option", "-p", "@b", "two;"},
		{"set-option", "-p", "@c", `three\`},
		{"set-option", "-p", "@d", ""},
		{"wait-for", "-S", "chan"},
	})
	want := [][]string{{
		"set-option", "-p", "@a", "one;",
		"set-option", "-p", "@b", `two\;`, ";",
		"set-option", "-p", "@c", `three\`, ";",
		"set-option", "-p", "@d", "", ";",
		"wait-for", "-S", "chan",
	}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("batches:\n got %q\nwant %q", got, want)
	}
}

// What the server stores is the value given, however the command before it ended.
func TestValuesSurviveHowCommandsEnd(t *testing.T) {
	c := testServer(t)
	ctx := context.Background()
	values := []string{"one", "two;", `three\`, "", `\;`, ";", "a b", "#{x}", "last"}
	var cmds []Cmd
	for i, v := range values {
		cmds = append(cmds, Cmd{"set-option", "-g", "@v" + string(rune('a'+i)), v})
	}
	if _, err := c.Run(ctx, cmds...); err != nil {
		t.Fatal(err)
	}
	for i, v := range values {
		got, err := c.Output(ctx, "show-options", "-gv", "@v"+string(rune('a'+i)))
		if err != nil {
			t.Fatal(err)
		}
		if got != v {
			t.Errorf("@v%c = %q, want %q", 'a'+i, got, v)
		}
	}
}
