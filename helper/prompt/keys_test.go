package prompt

import (
	"reflect"
	"strings"
	"testing"
)

func TestKeysOfRealDialogs(t *testing.T) {
	tests := []struct {
		agent, file string
		number      int
		yes, no     bool
		text        string
		want        []Step
	}{
		// Claude Code: the cursor moves from the first choice, Enter picks.
		{"claude", "claude/real_2.1.197_blocked_permission-bash.txt", 1, false, false, "", []Step{{Keys: []string{"Enter"}}}},
		{"claude", "claude/real_2.1.197_blocked_permission-bash.txt", 0, false, true, "", []Step{{Keys: []string{"Down", "Down"}, Select: 3}, {Keys: []string{"Enter"}}}},
		{"claude", "claude/real_2.1.197_blocked_question.txt", 0, false, false, "blue", []Step{{Keys: []string{"Down", "Down"}, Select: 3}, {Literal: "blue"}, {Keys: []string{"Enter"}}}},
		// Codex names a key for each choice.
		{"codex", "codex/real_0.171.0_blocked_permission-command.txt", 0, true, false, "", []Step{{Keys: []string{"y"}}}},
		{"codex", "codex/real_0.171.0_blocked_permission-command.txt", 3, false, false, "", []Step{{Keys: []string{"Escape"}}}},
		{"gemini", "gemini/real_0.61.0_blocked_permission-shell.txt", 2, false, false, "", []Step{{Keys: []string{"Down"}, Select: 2}, {Keys: []string{"Enter"}}}},
		// Copilot's No names Esc, which declines; Enter on it opens a field for what to do instead
		// and leaves the dialog up.
		{"copilot", "copilot/real_1.0.102_blocked_permission-shell.txt", 0, false, true, "", []Step{{Keys: []string{"Escape"}}}},
		{"copilot", "copilot/real_1.0.102_blocked_permission-shell.txt", 0, true, false, "", []Step{{Keys: []string{"Enter"}}}},
		{"copilot", "copilot/real_1.0.102_blocked_question.txt", 0, false, true, "", []Step{{Keys: []string{"C-d"}}}},
		{"copilot", "copilot/real_1.0.102_blocked_question.txt", 0, false, false, "red", []Step{{Literal: "red"}, {Keys: []string{"Enter"}}}},
		// A typed answer: the cursor goes to the choice that takes text first; Codex opens its
		// notes field with Tab.
		{"gemini", "gemini/real_0.61.0_blocked_question.txt", 0, false, false, "teal", []Step{{Keys: []string{"Down", "Down"}, Select: 3}, {Literal: "teal"}, {Keys: []string{"Enter"}}}},
		{"codex", "codex/real_0.171.0_blocked_question.txt", 0, false, false, "teal", []Step{{Keys: []string{"Down", "Down"}, Select: 3}, {Keys: []string{"Tab"}}, {Literal: "teal"}, {Keys: []string{"Enter"}}}},
		// OpenCode's permission choices sit on one line.
		{"opencode", "opencode/real_1.18.33_blocked_permission-shell.txt", 3, false, false, "", []Step{{Keys: []string{"Right", "Right"}, Select: 3}, {Keys: []string{"Enter"}}}},
		{"opencode", "opencode/real_1.18.33_blocked_question.txt", 2, false, false, "", []Step{{Keys: []string{"Down"}, Select: 2}, {Keys: []string{"Enter"}}}},
		// Cline names its permission's keys; its question's choices are picked with the arrows.
		{"cline", "../../detect/testdata/cline/real_3.0.65_blocked_permission-command.txt", 0, false, true, "", []Step{{Keys: []string{"n"}}}},
		{"cline", "../../detect/testdata/cline/real_3.0.65_blocked_question.txt", 2, false, false, "", []Step{{Keys: []string{"Down"}, Select: 2}, {Keys: []string{"Enter"}}}},
		// OpenCode draws its cursor in colour only: a typed answer goes by the choice's number
		// key, which opens its field at once. Kilo Code, its fork, takes the same.
		{"opencode", "opencode/real_1.18.33_blocked_question.txt", 0, false, false, "teal", []Step{{Keys: []string{"3"}, Field: true}, {Literal: "teal"}, {Keys: []string{"Enter"}}}},
		{"kilo", "opencode/real_1.18.33_blocked_question.txt", 0, false, false, "teal", []Step{{Keys: []string{"3"}, Field: true}, {Literal: "teal"}, {Keys: []string{"Enter"}}}},
		{"cline", "../../detect/testdata/cline/real_3.0.65_blocked_question.txt", 0, false, false, "teal", []Step{{Keys: []string{"Down", "Down"}, Select: 3}, {Literal: "teal"}, {Keys: []string{"Enter"}}}},
		// Copilot's question with suggested values: the arrows pick one, or reach "Other", whose
		// field opens under the form; Ctrl+D declines.
		{"copilot", "../../detect/testdata/copilot/real_1.0.102_blocked_question-choices.txt", 2, false, false, "", []Step{{Keys: []string{"Down"}, Select: 2}, {Keys: []string{"Enter"}}}},
		{"copilot", "../../detect/testdata/copilot/real_1.0.102_blocked_question-choices.txt", 0, false, false, "teal", []Step{{Keys: []string{"Down", "Down"}, Select: 3}, {Literal: "teal"}, {Keys: []string{"Enter"}}}},
		{"copilot", "../../detect/testdata/copilot/real_1.0.102_blocked_question-choices.txt", 0, false, true, "", []Step{{Keys: []string{"C-d"}}}},
		// The form's review page: --yes submits it, --no dismisses it.
		{"opencode", "../../detect/testdata/opencode/real_1.18.33_blocked_question-review.txt", 0, true, false, "", []Step{{Keys: []string{"Enter"}}}},
		{"opencode", "../../detect/testdata/opencode/real_1.18.33_blocked_question-review.txt", 0, false, true, "", []Step{{Keys: []string{"Escape"}}}},
	}
	for _, tt := range tests {
		p := Read(tt.agent, fixture(t, tt.file))
		if p == nil {
			t.Fatalf("%s: no dialog", tt.file)
		}
		o, err := Choice(p, tt.number, tt.yes, tt.no, tt.text)
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if got := Keys(tt.agent, p, o, tt.text); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s option %d yes=%v no=%v text=%q: keys %+v, want %+v", tt.file, tt.number, tt.yes, tt.no, tt.text, got, tt.want)
		}
	}
}

func TestKeysFollowTheCursor(t *testing.T) {
	p := &Prompt{Kind: KindQuestion, Options: []Option{{Number: 1, Label: "a"}, {Number: 2, Label: "b"}, {Number: 3, Label: "c"}}, Selected: 3}
	got := Keys("claude", p, p.Options[0], "")
	want := []Step{{Keys: []string{"Up", "Up"}, Select: 1}, {Keys: []string{"Enter"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("keys %+v, want %+v", got, want)
	}
}

func TestChoiceRefuses(t *testing.T) {
	p := Read("gemini", fixture(t, "gemini/real_0.61.0_blocked_permission-shell.txt"))
	if _, err := Choice(p, 7, false, false, ""); err == nil {
		t.Error("option 7 of a three-choice dialog was taken")
	}
	if _, err := Choice(p, 0, false, false, "hi"); err == nil {
		t.Error("a typed answer was taken by a dialog with no text choice")
	}
	if _, err := Choice(p, 0, false, false, ""); err == nil {
		t.Error("no answer at all was taken")
	}
}

func TestSame(t *testing.T) {
	a := Read("claude", fixture(t, "claude/real_2.1.197_blocked_permission-bash.txt"))
	b := Decode(a.Encode())
	b.Selected = 3 // the cursor is no part of the dialog
	if !Same(a, b) {
		t.Errorf("a prompt and its stored copy differ: %+v vs %+v", a, b)
	}
	c := *b
	c.Options = append([]Option{}, b.Options...)
	c.Options[2].Label = "Yes, all of it"
	if Same(a, &c) {
		t.Error("a dialog with another option is the same")
	}
	q := Read("claude", fixture(t, "claude/real_2.1.197_blocked_question.txt"))
	if Same(a, q) || Same(a, nil) {
		t.Error("a permission and a question are the same dialog")
	}
	if Decode("{broken") != nil || Decode("") != nil {
		t.Error("a broken stored prompt decoded")
	}
}

func TestSummary(t *testing.T) {
	p := Read("claude", fixture(t, "claude/real_2.1.197_blocked_permission-bash.txt"))
	want := "wants to run `echo probe > probe.txt` — 1 Yes · 2 Yes, and always allow access to repo/ from this project · 3 No"
	if got := p.Summary(); got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}

func TestTyped(t *testing.T) {
	before := fixture(t, "gemini/real_0.61.0_blocked_question.txt")
	typed := strings.Replace(before, "3.  Enter a custom value", "3.  a teal and", 1)
	wrapped := strings.Replace(typed, "a teal and", "a teal and\n│       grey shade", 1)
	tests := []struct {
		name, after, text string
		want              bool
	}{
		{"the text in the field", typed, "a teal and", true},
		{"wrapped over two lines of a box", wrapped, "a teal and grey shade", true},
		{"nothing typed", before, "a teal and", false},
		{"a part only", strings.Replace(before, "Enter a custom value", "e", 1), "teal", false},
		// Words already on screen before the typing are no proof it arrived.
		{"already there", before, "Option 2", false},
	}
	for _, tt := range tests {
		if got := Typed(before, tt.after, tt.text); got != tt.want {
			t.Errorf("%s: Typed = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// A typed answer sees the field open, or the typed text in it, as the dialog it answers: were it
// another dialog, the answer would stop before its text, or count as taken before its Enter.
func TestTheFieldOfATypedAnswer(t *testing.T) {
	for _, c := range []struct {
		agent, dialog, field string
		selected             int  // where the cursor is with the field open: 0 unseen, -1 another dialog
		open                 bool // whether FieldOpen sees the field
	}{
		{"opencode", "opencode/real_1.18.33_blocked_question.txt", "../../detect/testdata/opencode/real_1.18.33_blocked_question-field-open.txt", 0, true},
		{"opencode", "opencode/real_1.18.33_blocked_question.txt", "../../detect/testdata/opencode/real_1.18.33_blocked_question-field-typed.txt", 0, true},
		{"kilo", "opencode/real_1.18.33_blocked_question.txt", "../../detect/testdata/opencode/real_1.18.33_blocked_question-field-open.txt", 0, true},
		// Its closed choice, and another question's screen, show no field.
		{"opencode", "opencode/real_1.18.33_blocked_question.txt", "opencode/real_1.18.33_blocked_question.txt", 0, false},
		{"opencode", "opencode/real_1.18.33_blocked_question.txt", "../../detect/testdata/opencode/real_1.18.33_blocked_question-2.txt", -1, false},
		{"cline", "../../detect/testdata/cline/real_3.0.65_blocked_question.txt", "../../detect/testdata/cline/real_3.0.65_blocked_question-typed.txt", 3, false},
		{"copilot", "../../detect/testdata/copilot/real_1.0.102_blocked_question-choices.txt", "../../detect/testdata/copilot/real_1.0.102_blocked_question-other.txt", 3, false},
		{"copilot", "../../detect/testdata/copilot/real_1.0.102_blocked_question-choices.txt", "../../detect/testdata/copilot/real_1.0.102_blocked_question-other-typed.txt", 3, false},
	} {
		rec := Read(c.agent, fixture(t, c.dialog))
		screen := fixture(t, c.field)
		q := Read(c.agent, screen)
		if c.selected >= 0 && (!Same(rec, q) || q.Selected != c.selected) {
			t.Errorf("%s %s: read %+v, want the dialog %+v with the cursor on %d", c.agent, c.field, q, rec, c.selected)
		}
		if got := FieldOpen(c.agent, screen, rec); got != c.open {
			t.Errorf("%s %s: FieldOpen = %v, want %v", c.agent, c.field, got, c.open)
		}
	}
}

func TestCopilotQuestionWithSuggestions(t *testing.T) {
	p := Read("copilot", fixture(t, "../../detect/testdata/copilot/real_1.0.102_blocked_question-choices.txt"))
	want := &Prompt{Kind: KindQuestion, Question: "Which colour should the button be?", Source: FromScreen, Selected: 1, Options: []Option{
		{Number: 1, Label: "probe 1"}, {Number: 2, Label: "probe 2"}, {Number: 3, Label: "Other (type your answer)", Text: true},
		{Number: 4, Label: "Decline", Key: "C-d"}}}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("read %+v, want %+v", p, want)
	}
}

func TestAllowsIsAPermissionAnsweredYes(t *testing.T) {
	perm := &Prompt{Kind: KindPermission, Options: []Option{{Number: 1, Label: "Allow once"},
		{Number: 2, Label: "Always allow run 'echo *' commands in this project"}, {Number: 3, Label: "No, suggest changes"}}}
	question := &Prompt{Kind: KindQuestion, Options: []Option{{Number: 1, Label: "Yes"}}}
	for _, tt := range []struct {
		p    *Prompt
		o    Option
		want bool
	}{
		{perm, perm.Options[0], true},
		{perm, perm.Options[1], true},
		{perm, perm.Options[2], false},
		{question, question.Options[0], false},
		{nil, Option{Label: "Yes"}, false},
	} {
		if got := Allows(tt.p, tt.o); got != tt.want {
			t.Errorf("Allows(%v, %q) = %t, want %t", tt.p, tt.o.Label, got, tt.want)
		}
	}
}
