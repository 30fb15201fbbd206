package popup

import (
	"strings"
	"unicode"

	"github.com/taw-tmux/taw/helper/ctrl"
)

// runeWidth is the number of terminal cells a rune takes: 0 for combining marks and controls, 2
// for wide East Asian characters and emoji, 1 otherwise.
func runeWidth(r rune) int {
	switch {
	case r < ' ' || r == 0x7f:
		return 0
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || r == 0x200d:
		return 0
	case r >= 0x1100 && r <= 0x115f, r >= 0x2e80 && r <= 0xa4cf && r != 0x303f,
		r >= 0xac00 && r <= 0xd7a3, r >= 0xf900 && r <= 0xfaff, r >= 0xfe30 && r <= 0xfe4f,
		r >= 0xff00 && r <= 0xff60, r >= 0xffe0 && r <= 0xffe6, r >= 0x1f300 && r <= 0x1f64f,
		r >= 0x1f680 && r <= 0x1f6ff, r >= 0x1f900 && r <= 0x1f9ff, r >= 0x1fa70 && r <= 0x1faff,
		r >= 0x20000 && r <= 0x3fffd:
		return 2
	}
	return 1
}

// Width is the number of cells s takes.
func Width(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

// Fit is s cut or padded to exactly w cells; a cut ends in "…".
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if Width(s) <= w {
		return s + strings.Repeat(" ", w-Width(s))
	}
	var b strings.Builder
	n := 0
	for _, r := range s {
		rw := runeWidth(r)
		if n+rw > w-1 {
			break
		}
		b.WriteRune(r)
		n += rw
	}
	b.WriteString("…")
	n++
	return b.String() + strings.Repeat(" ", w-n)
}

// FitLeft is s cut from the left (keeping its end, as for a directory) or padded to w cells.
func FitLeft(s string, w int) string {
	if Width(s) <= w || w <= 0 {
		return Fit(s, w)
	}
	rs := []rune(s)
	n := 1
	i := len(rs)
	for i > 0 && n+runeWidth(rs[i-1]) <= w {
		i--
		n += runeWidth(rs[i])
	}
	return "…" + string(rs[i:]) + strings.Repeat(" ", w-n)
}

// clean makes text safe to draw on one line of a known width: tabs become spaces; controls go;
// so do invisible format characters (right-to-left overrides and isolates would reorder the rest
// of the row, and zero-width joiners glue emoji into one glyph that terminals draw one, two or
// three cells wide) and variation selectors (which switch an emoji between one cell and two).
// What is left has the width Width counts: a joined family shows as its members side by side.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case ctrl.Is(r):
			return -1
		case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r):
			return -1
		case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef:
			return -1
		}
		return r
	}, s)
}
