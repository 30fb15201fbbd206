// Package ctrl is taw's one definition of a control character: what no input check lets through
// and no plain output prints as it is. A control is a C0 control (U+0000–U+001F), DEL or a C1
// control (U+0080–U+009F: U+009B is CSI to some terminals); beside them, the marks that change
// text's direction (bidi overrides, embeddings, isolates and marks) would reorder what a
// terminal shows after them, so they count as unsafe too.
package ctrl

import (
	"strings"
	"unicode/utf8"
)

// Is says whether r is a control character: C0, DEL or C1.
func Is(r rune) bool { return r < 0x20 || r >= 0x7f && r < 0xa0 }

// IsBidi says whether r is a mark that changes the direction of the text after it.
func IsBidi(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}

// Unsafe says whether r is a control character or a direction mark.
func Unsafe(r rune) bool { return Is(r) || IsBidi(r) }

// Has says whether s holds an unsafe character (Unsafe) or invalid UTF-8.
func Has(s string) bool { return !utf8.ValidString(s) || strings.IndexFunc(s, Unsafe) >= 0 }

// HasExcept is Has, allowing the control characters of keep (a newline, a tab).
func HasExcept(s, keep string) bool {
	return !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool { return Unsafe(r) && !strings.ContainsRune(keep, r) }) >= 0
}

// Printable is s with its invalid UTF-8 and direction marks dropped and each control character
// (a newline, a tab, an escape) made a space, so it cannot break a line, reach a terminal as a
// command or reorder what follows.
func Printable(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case Is(r):
			return ' '
		case IsBidi(r):
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
}
