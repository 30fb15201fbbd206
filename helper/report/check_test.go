package report

import "testing"

func TestPrintable(t *testing.T) {
	// Each text and what Printable makes of it.
	for in, want := range map[string]string{
		"":                      "",
		"plain words":           "plain words",
		"two\nlines\tand a tab": "two lines and a tab",
		"\x1b]0;title\x07done":  " ]0;title done",
		"bad \xff byte":         "bad  byte",
		"日本語 kept":              "日本語 kept",
		"\u0085next line":       " next line",
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}
