package config

import (
	"testing"

	"github.com/pelletier/go-toml/v2/unstable"
)

// walkKeys hands each key its value, and a header none, under the name KeyLines gives it.
func TestWalkKeys(t *testing.T) {
	file := "a = 1\n[t]\nb = \"x\"\n[[arr]]\nc = true\nbroken = \n"
	want := []struct {
		name string
		line int
		kind unstable.Kind // Invalid: a header, with no value
	}{
		{"a", 1, unstable.Integer},
		{"t", 2, unstable.Invalid},
		{"t.b", 3, unstable.String},
		{"arr.0", 4, unstable.Invalid},
		{"arr.0.c", 5, unstable.Bool},
	}
	i := 0
	walkKeys([]byte(file), func(name string, line int, v *unstable.Node) {
		kind := unstable.Invalid
		if v != nil {
			kind = v.Kind
		}
		if i >= len(want) {
			t.Errorf("walked %s:%d past the syntax error", name, line)
			return
		}
		if w := want[i]; name != w.name || line != w.line || kind != w.kind {
			t.Errorf("step %d: %s:%d %v, want %s:%d %v", i, name, line, kind, w.name, w.line, w.kind)
		}
		i++
	})
	if i != len(want) {
		t.Errorf("walked %d steps, want %d", i, len(want))
	}
}
