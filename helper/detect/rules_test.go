package detect

import (
	"errors"
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/config"
)

func mustParse(t *testing.T, src string) *RuleSet {
	t.Helper()
	set, err := ParseRules("claude.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func screen(lines ...string) Screen { return Screen{Lines: lines} }

func TestParseRulesErrors(t *testing.T) {
	const head = "agent = \"claude\"\n"
	tests := []struct {
		name, file, src string
		want            string // the whole "file:line: …" prefix and a fragment of the message
	}{
		{"unknown top key", "claude.toml", head + "agnet = 1\n", `claude.toml:2: unknown key "agnet" in the file (expected: format, agent, rule)`},
		{"unknown rule key", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\ncontains = [\"x\"]\nprioriy = 3\n", `claude.toml:6: unknown key "prioriy" in a [[rule]]`},
		{"unknown nested key", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\nany = [\n  { contians = [\"x\"] },\n]\n", `claude.toml:6: unknown key "contians" in a condition table`},
		{"id in nested", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\nany = [{ id = \"b\", contains = [\"x\"] }]\n", `claude.toml:5: unknown key "id" in a condition table`},
		{"missing agent", "claude.toml", "[[rule]]\n", `claude.toml:1: missing agent = "claude"`},
		{"agent mismatch", "claude.toml", "agent = \"codex\"\n", `claude.toml:1: agent "codex" does not match the file name: name the file codex.toml`},
		{"alias is fine but file must be the id", "claude-code.toml", "agent = \"claude-code\"\n", "name the file claude.toml"},
		{"report-only agent", "crush.toml", "agent = \"crush\"\n", `crush.toml:1: agent "crush" is not one taw detects`},
		{"format", "claude.toml", head + "format = 2\n", "claude.toml:2: format must be 1"},
		{"rule not array", "claude.toml", head + "[rule]\nid = \"a\"\n", "claude.toml:2: rules are written as [[rule]] tables"},
		{"no id", "claude.toml", head + "\n[[rule]]\nstate = \"idle\"\n", `claude.toml:3: a [[rule]] needs an id`},
		{"bad id", "claude.toml", head + "[[rule]]\nid = \"Has Space\"\n", `claude.toml:3: rule id "Has Space"`},
		{"no state", "claude.toml", head + "[[rule]]\nid = \"a\"\ncontains = [\"x\"]\n", `claude.toml:2: rule "a" needs a state`},
		{"bad state", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"done\"\n", `claude.toml:4: rule "a": invalid state "done" (expected: idle, working, blocked)`},
		{"bad priority", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\npriority = \"high\"\n", "claude.toml:5: rule \"a\": priority must be a whole number"},
		{"bad region", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\nregion = \"bottom\"\ncontains = \"x\"\n", `claude.toml:5: invalid region "bottom" (expected: screen, bottom:N`},
		{"bottom range", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\nregion = \"bottom:0\"\ncontains = \"x\"\n", "bottom:N takes N from 1 to 500"},
		{"above range", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\nregion = \"above_prompt_box:x\"\ncontains = \"x\"\n", "above_prompt_box:N takes N"},
		{"nothing to match", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\n", `claude.toml:2: rule "a": a condition needs contains, regex, all or any`},
		{"not alone", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\nnot = [{ contains = [\"x\"] }]\n", "not alone matches everything"},
		{"empty contains", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\ncontains = [\"\"]\n", "claude.toml:5: rule \"a\": a contains string must have 1 to"},
		{"contains number", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\ncontains = [1]\n", "contains takes strings, not an integer"},
		{"any of strings", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\nany = [\"x\"]\n", `every entry of any must be a table such as { contains = ["…"] }, not a string`},
		{"empty any", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\nany = []\n", "any must be a non-empty array of tables"},
		{"bad regex", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\nregex = ['(unclosed']\n", "claude.toml:5: rule \"a\": regex \"(unclosed\": missing closing )"},
		{"rust class", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\nregex = ['^\\p{Alphabetic}+']\n", `use \p{L}`},
		{"rust code point", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\nregex = ['[\\u2800-\\u28FF]']\n", `\x{2800}`},
		{"lookahead", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\nregex = ['a(?=b)']\n", "no look-around"},
		{"regex in basic string", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\nregex = [\"\\d+\"]\n", `claude.toml:5: invalid escape "\d" in a "string": write regexes in 'single quotes'`},
		{"duplicate id", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\ncontains = \"x\"\n[[rule]]\nid = \"a\"\nstate = \"idle\"\ncontains = \"y\"\n", `claude.toml:6: rule id "a" is used twice (first on line 2)`},
		{"too deep", "claude.toml", head + "[[rule]]\nid = \"a\"\nstate = \"idle\"\nany = [" + strings.Repeat("{ any = [", 9) + "{ contains = \"x\" }" + strings.Repeat("] }", 9) + "]\n", "nested more than 8 deep"},
		{"too big", "claude.toml", head + "# " + strings.Repeat("x", maxFileBytes), "more than the"},
		{"syntax", "claude.toml", head + "[[rule]]\nid = \"a\n", "claude.toml:3: string is not closed"},
	}
	for _, tt := range tests {
		_, err := ParseRules(tt.file, []byte(tt.src))
		if err == nil {
			t.Errorf("%s: no error, want %q", tt.name, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, err, tt.want)
		}
	}
}

func TestPriorityAndOrder(t *testing.T) {
	set := mustParse(t, `agent = "claude"
[[rule]]
id = "low"
state = "idle"
priority = 1
contains = "ready"

[[rule]]
id = "first-tie"
state = "working"
priority = 5
contains = "busy"

[[rule]]
id = "second-tie"
state = "blocked"
priority = 5
contains = "busy"

[[rule]]
id = "high"
state = "blocked"
priority = 10
contains = ["ready", "allow?"]
`)
	tests := []struct {
		lines []string
		rule  string
	}{
		{[]string{"ready"}, "low"},
		{[]string{"busy", "ready"}, "first-tie"}, // a tie goes to the rule written first
		{[]string{"ready", "allow?"}, "high"},    // written last, but higher
		{[]string{"nothing here"}, FallbackIdle},
		{nil, FallbackIdle},
	}
	for _, tt := range tests {
		if got := set.Classify(screen(tt.lines...)); got.RuleID != tt.rule {
			t.Errorf("%q: rule %s, want %s", tt.lines, got.RuleID, tt.rule)
		}
	}
}

func TestMatchers(t *testing.T) {
	set := mustParse(t, `agent = "claude"
[[rule]]
id = "combo"
state = "blocked"
region = "bottom:3"
contains = ["Proceed?"]
any = [{ contains = ["1. yes"] }, { regex = ['(?m)^> Allow$'] }]
all = [{ region = "title", contains = ["claude"] }]
not = [{ contains = ["(demo)"] }]
`)
	tests := []struct {
		name     string
		s        Screen
		match    bool
		evidence string
	}{
		{"all parts", Screen{Lines: []string{"old", "PROCEED?", "1. Yes"}, Title: "Claude"}, true, "PROCEED?"},
		{"any second", Screen{Lines: []string{"Proceed?", "> Allow"}, Title: "claude"}, true, "Proceed?"},
		{"not", Screen{Lines: []string{"Proceed? (demo)", "1. yes"}, Title: "claude"}, false, ""},
		{"all fails", Screen{Lines: []string{"Proceed?", "1. yes"}, Title: "vim"}, false, ""},
		{"any fails", Screen{Lines: []string{"Proceed?", "> Allowed"}, Title: "claude"}, false, ""},
		{"outside region", Screen{Lines: []string{"Proceed?", "1. yes", "a", "b", "c"}, Title: "claude"}, false, ""},
		// Trailing blank lines and trailing spaces are not part of the screen.
		{"blank tail", Screen{Lines: []string{"Proceed?   ", "1. yes", "", "  ", ""}, Title: "claude"}, true, "Proceed?"},
	}
	for _, tt := range tests {
		got := set.Classify(tt.s)
		if (got.RuleID == "combo") != tt.match {
			t.Errorf("%s: got %+v, match want %v", tt.name, got, tt.match)
		}
		if tt.match && (got.Evidence != tt.evidence || got.Region != "bottom:3" || got.State != "blocked") {
			t.Errorf("%s: got %+v, want evidence %q in bottom:3", tt.name, got, tt.evidence)
		}
	}
}

// Go's regexp is RE2: \s, \b and \w are ASCII only, so a non-breaking space (which Claude Code
// puts after its prompt) needs spelling out, and letters of other scripts need \p{L}.
func TestUnicodeRegex(t *testing.T) {
	set := mustParse(t, `agent = "claude"
[[rule]]
id = "ascii-space"
state = "working"
priority = 2
regex = ['(?m)^❯\s+\S']

[[rule]]
id = "any-space"
state = "idle"
priority = 1
regex = ['(?m)^❯[\s\x{00a0}]+\S']

[[rule]]
id = "letters"
state = "working"
regex = ['^[✻✳⠋][ ]\p{L}+…$']
`)
	if got := set.Classify(screen("❯\u00a0fix it")); got.RuleID != "any-space" {
		t.Errorf("nbsp prompt: %s, want any-space (ASCII \\s skips U+00A0)", got.RuleID)
	}
	if got := set.Classify(screen("❯ fix it")); got.RuleID != "ascii-space" {
		t.Errorf("space prompt: %s", got.RuleID)
	}
	for _, line := range []string{"✻ Размышляю…", "⠋ Thinking…", "✳ 考えています…"} {
		if got := set.Classify(screen(line)); got.RuleID != "letters" {
			t.Errorf("%q: %s, want letters", line, got.RuleID)
		}
	}
	// contains ignores case beyond ASCII too.
	set = mustParse(t, "agent = \"claude\"\n[[rule]]\nid = \"u\"\nstate = \"blocked\"\ncontains = \"ÉCHAP POUR ANNULER\"\n")
	if got := set.Classify(screen("  échap pour annuler")); got.RuleID != "u" || got.Evidence != "échap pour annuler" {
		t.Errorf("case folding: %+v", got)
	}
}

func TestPromptBox(t *testing.T) {
	rule := strings.Repeat("─", 40)
	tests := []struct {
		name                 string
		lines                []string
		above, inside, below string
	}{
		{"rounded", []string{"out", "╭────╮", "│ > hi │", "╰────╯", "hint"}, "out", "> hi", "hint"},
		{"square", []string{"┌──┐", "│ x │", "└──┘"}, "", "x", ""},
		{"rules", []string{"out", rule, "❯\u00a0typed", rule, "  ? for shortcuts"}, "out", "❯\u00a0typed", "  ? for shortcuts"},
		{"labelled rule", []string{rule + " plan ──", "❯", rule}, "", "❯", ""},
		{"heavy rule", []string{strings.Repeat("━", 10), "> ", strings.Repeat("━", 10)}, "", ">", ""},
		{"last box wins", []string{"╭─╮", "│ old │", "╰─╯", "text", "╭─╮", "│ new │", "╰─╯"}, "╭─╮\n│ old │\n╰─╯\ntext", "new", ""},
		{"no box", []string{"plain", "> prompt"}, "", "", ""},
		{"short rule is text", []string{"──", "x", "──"}, "", "", ""},
		{"open box", []string{"│ x │", "╰──╯"}, "", "", ""},
		{"too far up", append([]string{"╭╮", "│ x │", "╰╯"}, strings.Split(strings.Repeat("line\n", 13), "\n")...), "", "", ""},
	}
	for _, tt := range tests {
		v := newView(Screen{Lines: tt.lines})
		got := [3]string{
			v.region(region{kind: regionAbovePromptBox}).joined,
			v.region(region{kind: regionPromptBox}).joined,
			v.region(region{kind: regionBelowPromptBox}).joined,
		}
		if got != [3]string{tt.above, tt.inside, tt.below} {
			t.Errorf("%s: above/inside/below = %q", tt.name, got)
		}
	}
}

func TestBottomRegion(t *testing.T) {
	v := newView(screen("a", "", "b", "  ", "c", "", ""))
	if got := v.region(region{kind: regionBottom, n: 2}).joined; got != "b\nc" {
		t.Errorf("bottom:2 = %q, want blank lines skipped", got)
	}
	if got := v.region(region{kind: regionBottom, n: 50}).joined; got != "a\nb\nc" {
		t.Errorf("bottom:50 = %q", got)
	}
	boxed := newView(screen("a", "b", "", "c", "╭─╮", "│ > │", "╰─╯"))
	if got := boxed.region(region{kind: regionAbovePromptBox, n: 2}).joined; got != "b\nc" {
		t.Errorf("above_prompt_box:2 = %q", got)
	}
	if got := v.region(region{kind: regionTitle}).joined; got != "" {
		t.Errorf("empty title = %q", got)
	}
}

func TestEvidenceClipped(t *testing.T) {
	set := mustParse(t, "agent = \"claude\"\n[[rule]]\nid = \"long\"\nstate = \"working\"\nregex = '✻.*'\n")
	got := set.Classify(screen("✻ " + strings.Repeat("é", 200)))
	if len(got.Evidence) > maxEvidence+len("…") || !strings.HasSuffix(got.Evidence, "…") {
		t.Errorf("evidence not clipped: %d bytes", len(got.Evidence))
	}
	if !strings.HasPrefix(got.Evidence, "✻ é") || strings.ContainsRune(got.Evidence, '\uFFFD') {
		t.Errorf("evidence cut inside a character: %q", got.Evidence)
	}
}

func TestClassifyUnknownAgents(t *testing.T) {
	rs, _ := Load(func(string) string { return "" })
	if got := rs.Classify("crush", screen("Do you want to proceed?", "❯ 1. Yes", "2. No")); got != (Verdict{}) {
		t.Errorf("report-only agent: %+v, want an empty verdict", got)
	}
	if got := rs.Classify("my-bot", screen("x")); got != (Verdict{}) {
		t.Errorf("unknown agent: %+v", got)
	}
	if got := rs.Classify("claude-code", screen("x")); got != (Verdict{}) {
		t.Errorf("an alias is not an id: %+v", got)
	}
	var none *Rules
	if got := none.Classify("claude", screen("x")); got.State != "idle" || got.RuleID != FallbackIdle {
		t.Errorf("no rules loaded: %+v, want the idle fallback", got)
	}
}

// A rule file's problem is the same file-position error as the config's, with its code.
func TestRuleFileProblemIsAConfigProblem(t *testing.T) {
	_, err := ParseRules("claude.toml", []byte("format = 1\nagent = \"claude\"\n[[rule]]\nid = \"Bad Id\"\n"))
	var p *config.Problem
	if !errors.As(err, &p) || p.Path != "claude.toml" || p.Line == 0 || p.ErrorCode() != coded.ConfigInvalid {
		t.Fatalf("ParseRules = %#v, want a *config.Problem at a line of claude.toml", err)
	}
}

// The screen may correct a hook only to a state a rule of the agent's own reads (never the
// fallback): an agent whose catalogue entry lets its screen correct a hook to a state needs a
// rule for that state, or the correction can never fire.
func TestEveryCorrectionHasARule(t *testing.T) {
	rs, errs := Load(func(string) string { return "" })
	for _, err := range errs {
		t.Fatal(err)
	}
	for _, a := range agents.Known {
		for reported, to := range a.Corrections {
			for _, state := range to {
				found := rs.Set(a.ID).Reads(state)
				if !found {
					t.Errorf("%s: its screen may correct a hook's %s to %s, but rules/%s.toml has no %s rule", a.ID, reported, state, a.ID, state)
				}
			}
		}
	}
}
