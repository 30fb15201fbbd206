package detect

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Screen is what a pane shows: its lines as tmux captures them (top to bottom, no escapes) and
// its title (#{pane_title}, which agents set with OSC 0/2).
type Screen struct {
	Lines []string
	Title string
}

type regionKind int

const (
	regionScreen regionKind = iota
	regionBottom
	regionPromptBox
	regionAbovePromptBox
	regionBelowPromptBox
	regionTitle
)

// region is a part of the screen a rule looks at.
type region struct {
	kind regionKind
	n    int // lines, for bottom:N and above_prompt_box:N; 0 for all of them
}

const regionNames = "screen, bottom:N, prompt_box, above_prompt_box, above_prompt_box:N, below_prompt_box, title"

func parseRegion(s string) (*region, error) {
	switch s {
	case "screen":
		return &region{kind: regionScreen}, nil
	case "prompt_box":
		return &region{kind: regionPromptBox}, nil
	case "above_prompt_box":
		return &region{kind: regionAbovePromptBox}, nil
	case "below_prompt_box":
		return &region{kind: regionBelowPromptBox}, nil
	case "title":
		return &region{kind: regionTitle}, nil
	}
	for _, k := range []struct {
		prefix string
		kind   regionKind
	}{{"bottom:", regionBottom}, {"above_prompt_box:", regionAbovePromptBox}} {
		if rest, ok := strings.CutPrefix(s, k.prefix); ok {
			n, err := strconv.Atoi(rest)
			if err == nil && n >= 1 && n <= maxBottomLines {
				return &region{kind: k.kind, n: n}, nil
			}
			return nil, fmt.Errorf("invalid region %q: %sN takes N from 1 to %d", s, k.prefix, maxBottomLines)
		}
	}
	return nil, fmt.Errorf("invalid region %q (expected: %s)", s, regionNames)
}

func (r region) String() string {
	switch r.kind {
	case regionBottom:
		return "bottom:" + strconv.Itoa(r.n)
	case regionPromptBox:
		return "prompt_box"
	case regionAbovePromptBox:
		if r.n > 0 {
			return "above_prompt_box:" + strconv.Itoa(r.n)
		}
		return "above_prompt_box"
	case regionBelowPromptBox:
		return "below_prompt_box"
	case regionTitle:
		return "title"
	}
	return "screen"
}

// text is one region's lines, with their lower-case form made on first use.
type text struct {
	lines  []string
	joined string
	lowerJ string // strings.ToLower(joined)
	low    bool
	// When the lines are v.lines[a:b], joined and lowerJ are cut from the whole screen's, so
	// overlapping regions share one copy and one lower-casing.
	v    *view
	a, b int
}

func newText(lines []string) *text { return &text{lines: lines, joined: strings.Join(lines, "\n")} }

func (t *text) lowered() {
	if t.low {
		return
	}
	t.low = true
	if t.v == nil {
		t.lowerJ = lower(t.joined)
		return
	}
	t.lowerJ = t.v.lowered(t.a, t.b)
}

// lower is strings.ToLower(s), without a copy when s is already lower case. Screens are mostly
// box drawing, spinners and lower-case words, and strings.ToLower looks every rune of a string
// that is not pure ASCII up in the case tables. Like it, lower writes U+FFFD for a byte that is
// not UTF-8.
func lower(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				break
			}
			i++
			continue
		}
		if drawing(s[i:]) {
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !caseless(r) && ((r == utf8.RuneError && size == 1) || unicode.ToLower(r) != r) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b.WriteByte(c)
			i++
			continue
		}
		if drawing(s[i:]) {
			b.WriteString(s[i : i+3])
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if caseless(r) {
			b.WriteString(s[i : i+size])
		} else {
			b.WriteRune(unicode.ToLower(r))
		}
		i += size
	}
	return b.String()
}

// caselessBlocks are ranges of code points with no lower-case form (punctuation, arrows,
// technical symbols, box drawing, blocks, shapes, dingbats, braille, CJK, emoji), the runes
// terminal UIs draw most, so lower skips the case table for them. TestCaselessBlocks checks them.
var caselessBlocks = [...][2]rune{
	{0x2000, 0x20FF}, {0x2190, 0x245F}, {0x2500, 0x2BFF}, {0x3000, 0x9FFF}, {0x1F000, 0x1FAFF},
}

// drawing says whether s starts with a rune of U+2000–U+20FF or U+2500–U+2BFF (punctuation, box
// drawing, blocks, shapes, braille), read from its bytes without decoding it.
func drawing(s string) bool {
	return len(s) >= 3 && s[0] == 0xE2 && (s[1] >= 0x80 && s[1] <= 0x83 || s[1] >= 0x94 && s[1] <= 0xAF) && s[2]&0xC0 == 0x80
}

func caseless(r rune) bool {
	for _, b := range caselessBlocks {
		if r < b[0] {
			return false
		}
		if r <= b[1] {
			return true
		}
	}
	return false
}

// view is one screen being classified: every region is cut once, when a rule first asks for it.
type view struct {
	lines []string // right-trimmed, trailing blank lines dropped
	title string
	// The screen's text and its lower-case form, from some line to the bottom, made when a
	// region first needs them: regions of whole lines are cut from them without copying.
	raw, low tail
	split    bool // a line holds a newline, so regions cannot be cut at newlines

	boxDone bool
	top     int // the prompt box's upper border, or -1 when there is none
	bottom  int // its lower border
	inside  []string
	cache   []cached
}

type cached struct {
	r region
	t *text
}

// tail is lines from..end of a screen joined by newlines, with where each starts.
type tail struct {
	from   int
	s      string
	starts []int // and len(s)+1 at the end
	ok     bool
}

func (t *tail) set(from int, s string) {
	t.from, t.s, t.ok = from, s, true
	t.starts = append(t.starts[:0], 0)
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		t.starts = append(t.starts, i)
	}
	t.starts = append(t.starts, len(s)+1)
}

// cut is lines a..b-1 of the screen, a ≥ t.from.
func (t *tail) cut(a, b int) string { return t.s[t.starts[a-t.from] : t.starts[b-t.from]-1] }

func newView(s Screen) *view {
	v := &view{lines: make([]string, len(s.Lines)), title: s.Title, top: -1, cache: make([]cached, 0, 8)}
	for i, l := range s.Lines {
		v.lines[i] = strings.TrimRight(l, " \t\r")
		v.split = v.split || strings.IndexByte(l, '\n') >= 0
	}
	for len(v.lines) > 0 && v.lines[len(v.lines)-1] == "" {
		v.lines = v.lines[:len(v.lines)-1]
	}
	return v
}

// span is the text of v.lines[a:b].
func (v *view) span(a, b int) *text {
	if a >= b {
		return &text{}
	}
	if v.split {
		return newText(v.lines[a:b])
	}
	if !v.raw.ok || a < v.raw.from {
		v.raw.set(a, strings.Join(v.lines[a:], "\n"))
	}
	return &text{lines: v.lines[a:b], joined: v.raw.cut(a, b), v: v, a: a, b: b}
}

// lowered is the lower-cased text of v.lines[a:b], which span has cut. Lower-casing keeps every
// newline and never joins bytes across one, so the lower-case form is cut at its own newlines.
func (v *view) lowered(a, b int) string {
	if !v.low.ok || a < v.low.from {
		v.low.set(a, lower(v.raw.s[v.raw.starts[a-v.raw.from]:]))
	}
	return v.low.cut(a, b)
}

func (v *view) region(r region) *text {
	for _, c := range v.cache {
		if c.r == r {
			return c.t
		}
	}
	var t *text
	switch r.kind {
	case regionScreen:
		t = v.span(0, len(v.lines))
	case regionBottom:
		t = v.lastNonBlank(len(v.lines), r.n)
	case regionTitle:
		if v.title != "" {
			t = newText([]string{v.title})
		} else {
			t = &text{}
		}
	case regionAbovePromptBox:
		v.findBox()
		end := max(v.top, 0) // no box: no lines
		if r.n > 0 {
			t = v.lastNonBlank(end, r.n)
		} else {
			t = v.span(0, end)
		}
	case regionPromptBox:
		v.findBox()
		t = newText(v.inside)
	case regionBelowPromptBox:
		v.findBox()
		if v.top < 0 {
			t = &text{}
		} else {
			t = v.span(v.bottom+1, len(v.lines))
		}
	default:
		t = &text{}
	}
	v.cache = append(v.cache, cached{r, t})
	return t
}

// lastNonBlank is the last n lines of v.lines[:end] that are not blank, in screen order.
func (v *view) lastNonBlank(end, n int) *text {
	last, first, blanks := -1, end, false
	for i, seen := end-1, 0; i >= 0 && seen < n; i-- {
		if strings.TrimSpace(v.lines[i]) == "" {
			blanks = blanks || last >= 0
			continue
		}
		if last < 0 {
			last = i
		}
		first = i
		seen++
	}
	if last < 0 {
		return &text{}
	}
	if !blanks {
		return v.span(first, last+1)
	}
	out := make([]string, 0, n)
	for _, l := range v.lines[first : last+1] {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return newText(out)
}

// promptBoxReach is how far above the bottom a prompt box's lower border may be: agents draw
// at most a few lines of hints and status below their input box, while boxes further up are
// old output (a tool's framed result, a diff).
const promptBoxReach = 12

// findBox finds the prompt box: the last block framed by box drawing near the bottom. Its lower
// border is a line starting with ╰ or └, or a horizontal rule of ─ or ━; its upper border the
// nearest line above of the same kind: one starting with ╭ or ┌, or another rule. The lines inside lose their side
// borders (│ ┃) and surrounding spaces, so a rule can anchor on the prompt character.
func (v *view) findBox() {
	if v.boxDone {
		return
	}
	v.boxDone = true
	bottom := -1
	for i, seen := len(v.lines)-1, 0; i >= 0 && seen < promptBoxReach; i-- {
		t := strings.TrimSpace(v.lines[i])
		if t == "" {
			continue
		}
		seen++
		if isLowerBorder(t) {
			bottom = i
			break
		}
	}
	if bottom < 0 {
		return
	}
	// A box closed by a rule opens with a rule, and one closed by a corner opens with a corner:
	// otherwise a dialog under a rule (Claude Code's plan approval) would take the conversation
	// above it, up to some earlier framed output, for the input box.
	ruled := isRule(strings.TrimSpace(v.lines[bottom]))
	top := -1
	for i := bottom - 1; i >= 0; i-- {
		if t := strings.TrimSpace(v.lines[i]); isUpperBorder(t) && isRule(t) == ruled {
			top = i
			break
		}
	}
	if top < 0 {
		return
	}
	inside := make([]string, 0, bottom-top-1)
	for _, l := range v.lines[top+1 : bottom] {
		inside = append(inside, stripSideBorders(l))
	}
	v.top, v.bottom, v.inside = top, bottom, inside
}

func isLowerBorder(t string) bool {
	return strings.HasPrefix(t, "╰") || strings.HasPrefix(t, "└") || isRule(t)
}

func isUpperBorder(t string) bool {
	return strings.HasPrefix(t, "╭") || strings.HasPrefix(t, "┌") || isRule(t)
}

// isRule says whether a line is a horizontal rule: at least 8 ─ or ━ in a row at its start
// (Claude Code writes a label into its rules, so only the start is checked).
func isRule(t string) bool {
	n := 0
	for _, r := range t {
		if r != '─' && r != '━' {
			break
		}
		n++
	}
	return n >= 8
}

func stripSideBorders(l string) string {
	t := strings.TrimSpace(l)
	for _, b := range []string{"│", "┃"} {
		t = strings.TrimPrefix(t, b)
		t = strings.TrimSuffix(t, b)
	}
	return strings.TrimSpace(t)
}
