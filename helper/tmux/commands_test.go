package tmux

import (
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
