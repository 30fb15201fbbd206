package detect

import (
	"fmt"
	"strconv"
	"strings"
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

// text is one region's lines, with their lower-case forms made on first use.
type text struct {
	lines  []string
	joined string
	lower  []string
	lowerJ string
}

func newText(lines []string) *text { return &text{lines: lines, joined: strings.Join(lines, "\n")} }

func (t *text) lowered() {
	if t.lower == nil {
		t.lower = make([]string, len(t.lines))
		for i, l := range t.lines {
			t.lower[i] = strings.ToLower(l)
		}
		t.lowerJ = strings.Join(t.lower, "\n")
	}
}

// view is one screen being classified: every region is cut once, when a rule first asks for it.
type view struct {
	lines   []string // right-trimmed, trailing blank lines dropped
	title   string
	boxDone bool
	box     [3][]string // above, inside, below the prompt box; all nil when there is none
	cache   map[region]*text
}

func newView(s Screen) *view {
	lines := make([]string, len(s.Lines))
	for i, l := range s.Lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return &view{lines: lines, title: s.Title, cache: map[region]*text{}}
}

func (v *view) region(r region) *text {
	if t, ok := v.cache[r]; ok {
		return t
	}
	var lines []string
	switch r.kind {
	case regionScreen:
		lines = v.lines
	case regionBottom:
		lines = lastNonBlank(v.lines, r.n)
	case regionTitle:
		if v.title != "" {
			lines = []string{v.title}
		}
	case regionAbovePromptBox:
		v.findBox()
		lines = v.box[0]
		if r.n > 0 {
			lines = lastNonBlank(lines, r.n)
		}
	case regionPromptBox:
		v.findBox()
		lines = v.box[1]
	case regionBelowPromptBox:
		v.findBox()
		lines = v.box[2]
	}
	t := newText(lines)
	v.cache[r] = t
	return t
}

// lastNonBlank is the last n lines of lines that are not blank, in screen order.
func lastNonBlank(lines []string, n int) []string {
	var out []string
	for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
		if strings.TrimSpace(lines[i]) != "" {
			out = append(out, lines[i])
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
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
	v.box = [3][]string{v.lines[:top], inside, v.lines[bottom+1:]}
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
