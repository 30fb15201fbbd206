package ctrl

import "testing"

func TestUnsafe(t *testing.T) {
	for _, tt := range []struct {
		r    rune
		ctrl bool
		bidi bool
	}{
		{'\x00', true, false}, {'\x1b', true, false}, {'\n', true, false}, {'\x7f', true, false},
		{'\u0080', true, false}, {'\u009b', true, false}, {'\u009f', true, false},
		{'\u202e', false, true}, {'\u202a', false, true}, {'\u2066', false, true}, {'\u2069', false, true},
		{'\u200e', false, true}, {'\u200f', false, true}, {'\u061c', false, true},
		{' ', false, false}, {'a', false, false}, {'\u00a0', false, false}, {'é', false, false}, {'\u2028', false, false},
	} {
		if Is(tt.r) != tt.ctrl || IsBidi(tt.r) != tt.bidi || Unsafe(tt.r) != (tt.ctrl || tt.bidi) {
			t.Errorf("%U: Is %v IsBidi %v, want %v %v", tt.r, Is(tt.r), IsBidi(tt.r), tt.ctrl, tt.bidi)
		}
	}
}

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"a\x1b[31mb":           "a [31mb",
		"x\u009b201~y":         "x 201~y",
		"abc\u202edef":         "abcdef",
		"ok\xffthen":           "okthen",
		"line\nnext\ttab":      "line next tab",
		"plain ünïcødé 日本":     "plain ünïcødé 日本",
		"":                     "",
		"\x1b]0;title\x07done": " ]0;title done",
		"\u0085next line":      " next line",
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
	if !Has("a\u202eb") || !Has("a\u0085") || !Has("\xff") || Has("fine text") {
		t.Error("Has")
	}
	if HasExcept("a\nb\tc", "\n\t") || !HasExcept("a\nb\u009bc", "\n\t") {
		t.Error("HasExcept")
	}
}
