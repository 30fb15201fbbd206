package prompt

import (
	"fmt"
	"strconv"
	"strings"
)

// Step is one send-keys of an answer: tmux key names, or Literal text typed as it is. Select,
// when set, is the option the cursor is on once the keys are taken: a typed answer waits for it
// before the text goes, since text that arrives while the dialog still moves its cursor is lost.
// Field says the keys open the field of the choice that takes text: a typed answer waits until
// FieldOpen sees it open.
type Step struct {
	Keys    []string
	Literal string
	Select  int
	Field   bool
}

// Choice picks an option of a prompt: by number, the "yes" or "no" one, or the one that takes
// typed text. It says why when the prompt has no such option.
func Choice(p *Prompt, number int, yes, no bool, text string) (Option, error) {
	switch {
	case number > 0:
		for _, o := range p.Options {
			if o.Number == number {
				return o, nil
			}
		}
		return Option{}, fmt.Errorf("the dialog has no option %d: it has %d (%s)", number, len(p.Options), p.Summary())
	case yes:
		for _, o := range p.Options {
			if hasWordPrefix(o.Label, yesWords...) {
				return o, nil
			}
		}
		return Option{}, fmt.Errorf("no option of the dialog says yes (%s); pick one with --option N", p.Summary())
	case no:
		for _, o := range p.Options {
			if hasWordPrefix(o.Label, "no", "reject", "deny", "decline", "cancel", "dismiss") {
				return o, nil
			}
		}
		return Option{}, fmt.Errorf("no option of the dialog says no (%s); pick one with --option N", p.Summary())
	case text != "":
		for _, o := range p.Options {
			if o.Text {
				return o, nil
			}
		}
		return Option{}, fmt.Errorf("the dialog takes no typed answer (%s); pick one with --option N", p.Summary())
	}
	return Option{}, fmt.Errorf("say which answer: --option N, --yes, --no or --text T")
}

// yesWords begin the label of a choice that says yes (--yes picks the first such choice).
var yesWords = []string{"yes", "allow", "approve", "accept", "proceed", "submit"}

// Allows says whether answering p with o lets the agent do what p asks: a permission answered
// with a choice that says yes, or one that allows always (for the project, the session). The
// agent then runs it.
func Allows(p *Prompt, o Option) bool {
	return p != nil && p.Kind == KindPermission && !o.Text &&
		(hasWordPrefix(o.Label, yesWords...) || hasWordPrefix(o.Label, "always"))
}

func hasWordPrefix(label string, words ...string) bool {
	l := strings.ToLower(label)
	for _, w := range words {
		if l == w || strings.HasPrefix(l, w+",") || strings.HasPrefix(l, w+" ") {
			return true
		}
	}
	return false
}

// Keys are the keys that give answer o to the dialog p of agentID as it is on screen: the key
// the dialog names for the option when it names one, else the cursor moved from where it is
// to the option and the dialog's confirm key; text, if any, typed before the confirm.
func Keys(agentID string, p *Prompt, o Option, text string) []Step {
	d := dialogFor(agentID)
	if o.Key != "" && text == "" {
		return []Step{{Keys: []string{o.Key}}}
	}
	if o.Key != "" {
		return []Step{{Literal: text}, {Keys: []string{o.Key}}}
	}
	if text != "" && d.pick && o.Number <= 9 {
		return []Step{{Keys: []string{strconv.Itoa(o.Number)}, Field: true}, {Literal: text}, {Keys: []string{d.confirm}}}
	}
	next, prev := d.next, d.prev
	if p.Across {
		next, prev = "Right", "Left"
	}
	from := p.Selected
	if from == 0 {
		from = 1
	}
	var moves []string
	for i := from; i < o.Number; i++ {
		moves = append(moves, next)
	}
	for i := from; i > o.Number; i-- {
		moves = append(moves, prev)
	}
	var steps []Step
	if len(moves) > 0 {
		steps = append(steps, Step{Keys: moves, Select: o.Number})
	}
	if text != "" {
		if len(d.field) > 0 {
			steps = append(steps, Step{Keys: d.field})
		}
		steps = append(steps, Step{Literal: text})
	}
	return append(steps, Step{Keys: []string{d.confirm}})
}

// FieldOpen says whether the screen shows p, a dialog of agentID, with the field of its choice
// that takes text open. Only an agent whose answer steps open a field with a Step's Field set
// can tell; for any other it is false.
func FieldOpen(agentID, screen string, p *Prompt) bool {
	d := dialogFor(agentID)
	if d.fieldOpen == nil || !Same(Read(agentID, screen), p) {
		return false
	}
	for _, o := range p.Options {
		if o.Text {
			return d.fieldOpen(cleanLines(screen), o)
		}
	}
	return false
}

// Typed says whether text shows on the screen after it was typed (after) more often than
// before it (before): the field holds it. Boxes and spaces are left out of both, so a field that
// wraps the text over lines still shows it.
func Typed(before, after, text string) bool {
	want := squeeze([]string{text})
	if want == "" {
		return false
	}
	return strings.Count(squeeze(cleanLines(after)), want) > strings.Count(squeeze(cleanLines(before)), want)
}

// squeeze is lines joined with every space taken out.
func squeeze(lines []string) string {
	return strings.Join(strings.Fields(strings.Join(lines, "")), "")
}
