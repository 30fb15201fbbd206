package prompt

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/taw-tmux/taw/helper/ctrl"
)

// Read finds the dialog on an agent's screen (plain text, as capture-pane -p prints it), nil
// when none is there. agentID is the catalogue's id; it picks the agent's own way of drawing
// dialogs, and any other agent gets the common reading.
func Read(agentID, screen string) *Prompt {
	lines := cleanLines(screen)
	d := dialogFor(agentID)
	var p *Prompt
	if d.read != nil {
		p = d.read(lines)
	}
	if p == nil {
		p = readNumbered(lines, d)
	}
	if p == nil {
		return nil
	}
	p.Source = FromScreen
	return p
}

// cleanLines drops escape bytes and the boxes dialogs are drawn in, so a line is its words.
func cleanLines(screen string) []string {
	raw := strings.Split(strings.ReplaceAll(screen, "\r", ""), "\n")
	out := make([]string, len(raw))
	for i, l := range raw {
		out[i] = stripBorders(sanitize(l))
	}
	return out
}

// sanitize keeps printable text only: a capture is plain, but a stand-in or a broken agent can
// leave control bytes, and they must never reach a terminal or a tmux command from here.
func sanitize(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "")
	}
	return strings.Map(func(r rune) rune {
		if ctrl.Unsafe(r) {
			return -1
		}
		return r
	}, s)
}

const sideBorders = "│┃║▌▐|"

// scrollThumb is a scrollbar's thumb in a screen's last column (Qwen Code draws one for a moment
// after its screen scrolls; its track is a box side).
const scrollThumb = "█"

// stripBorders takes box sides (nested ones too) and a scrollbar off both ends of a line.
func stripBorders(l string) string {
	t := strings.TrimSpace(l)
	if body, ok := strings.CutSuffix(t, scrollThumb); ok && (body == "" || strings.HasSuffix(body, " ")) {
		t = strings.TrimSpace(body)
	}
	for {
		n := strings.TrimSpace(strings.TrimRight(strings.TrimLeft(t, sideBorders), sideBorders))
		if n == t {
			return t
		}
		t = n
	}
}

// optionRE is a numbered choice: an optional cursor, "N." and the label.
var optionRE = lazyRE(`^([❯›>▶●→]\s*)?(\d{1,2})\.\s+(\S.*)$`)

// questionRE is a line that asks: it ends in "?", maybe followed by a question's number.
var questionRE = lazyRE(`\?(\s+\d+)?$`)

// labelRE is "Word: …", a field of a dialog (Reason:, Environment:), never its question.
var labelRE = lazyRE(`^[A-Z][a-z]+: `)

// keyHintRE is a key named in brackets at the end of a label: "Yes, proceed (y)", and Copilot
// CLI's "No, and tell Copilot what to do differently (Esc to stop)", whose choice by Enter opens
// a field for what to do instead, where Esc declines at once.
var keyHintRE = lazyRE(`(?i)\s+\((y|n|p|a|esc|tab)(?:\s+to\s+[a-z]+)?\)$`)

type numbered struct {
	at       int // line index of the option
	n        int
	label    string
	selected bool
}

// readNumbered reads the common dialog: a question line over a run of "1. …", "2. …" choices,
// the last such run on the screen, with a cursor on one of them.
func readNumbered(lines []string, d dialog) *Prompt {
	var run []numbered
	for i := len(lines) - 1; i >= 0; i-- {
		m := optionRE().FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		n := atoi(m[2])
		if len(run) > 0 && n != run[0].n-1 {
			if run[0].n == 1 {
				break
			}
			run = nil // a stray number; start again above it
		}
		if len(run) > 0 && run[0].at-i > 4 {
			// too far above the run to belong to it
			if run[0].n == 1 {
				break
			}
			run = nil
		}
		run = append([]numbered{{at: i, n: n, label: m[3], selected: m[1] != ""}}, run...)
		if n == 1 {
			break
		}
	}
	if len(run) < 2 || run[0].n != 1 {
		return nil
	}
	if !d.noCursor && !anySelected(run) {
		return nil // a numbered list in the agent's output, not a menu
	}
	// The run must be the last thing of substance: only its footer hints may follow it.
	if tailHasProse(lines[run[len(run)-1].at+1:]) {
		return nil
	}
	p := &Prompt{}
	for _, o := range run {
		label := cleanLabel(o.label)
		opt := Option{Number: o.n, Label: label}
		if k := keyHintRE().FindStringSubmatch(label); k != nil {
			opt.Label = strings.TrimSpace(strings.TrimSuffix(label, k[0]))
			opt.Key = tmuxKey(k[1])
		}
		opt.Text = isTextChoice(opt.Label)
		p.Options = append(p.Options, opt)
		if o.selected {
			p.Selected = o.n
		}
	}
	p.Question = questionAbove(lines, run[0].at)
	p.Kind = kindOf(p.Question, p.Options, strings.Join(lines[max(0, run[0].at-6):run[0].at], "\n"))
	if p.Kind == KindPermission {
		p.Tool, p.Command = d.command(lines[max(0, run[0].at-14):run[0].at])
	}
	return p
}

// tailHasProse says whether lines after a run of choices hold more than descriptions, rules and
// key hints: the run is then old output, not a dialog.
func tailHasProse(lines []string) bool {
	n := 0
	for _, l := range lines {
		if l == "" || isRuleLine(l) {
			continue
		}
		n++
	}
	return n > 8
}

func anySelected(run []numbered) bool {
	for _, o := range run {
		if o.selected {
			return true
		}
	}
	return false
}

func isRuleLine(l string) bool {
	return strings.Trim(l, "─━═╭╮╰╯┌┐└┘ ") == ""
}

// cleanLabel keeps the choice's name: a wide dialog prints its description in a column after it.
func cleanLabel(s string) string {
	if i := strings.Index(s, "  "); i > 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

func isTextChoice(label string) bool {
	l := strings.ToLower(label)
	for _, w := range []string{"type something", "type your own", "enter a custom", "none of the above", "something else"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// questionAbove is the nearest line over the choices that asks something.
func questionAbove(lines []string, at int) string {
	for i := at - 1; i >= 0 && i >= at-12; i-- {
		l := lines[i]
		if l == "" || labelRE().MatchString(l) || optionRE().MatchString(l) {
			continue
		}
		if questionRE().MatchString(l) {
			// A trailing number stays: it is what tells two questions of one form apart.
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// kindOf names the dialog from its question, its choices and the few lines over them.
func kindOf(question string, opts []Option, context string) string {
	asked := strings.ToLower(question)
	for _, o := range opts {
		asked += "\n" + strings.ToLower(o.Label)
	}
	around := asked + "\n" + strings.ToLower(context)
	switch {
	case strings.Contains(around, "trust this folder") || strings.Contains(around, "trust the") || strings.Contains(around, "one you trust"):
		return KindTrust
	case strings.Contains(asked, "plan"):
		return KindPlanApproval
	case strings.Contains(around, "sign in") || strings.Contains(around, "log in") || strings.Contains(around, "api key"):
		return KindSignIn
	}
	first := ""
	if len(opts) > 0 {
		first = strings.ToLower(opts[0].Label)
	}
	if strings.HasPrefix(first, "yes") || strings.HasPrefix(first, "allow") || strings.HasPrefix(first, "approve") {
		return KindPermission
	}
	return KindQuestion
}

// tmuxKey spells a key as the dialog names it the way tmux's send-keys takes it.
func tmuxKey(k string) string {
	switch strings.ToLower(k) {
	case "esc":
		return "Escape"
	case "tab":
		return "Tab"
	}
	return k
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// lazyRE compiles expr the first time it is used: every taw command loads this package, and
// most never read a dialog.
func lazyRE(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

var columnGapRE = lazyRE(`\s{2,}`)
