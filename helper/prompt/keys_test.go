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
