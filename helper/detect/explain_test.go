package detect

import "testing"

func TestExplain(t *testing.T) {
	rs, _ := Load(func(string) string { return "" })
	f := readFixture(t, "testdata/claude/blocked_bash.txt")
	set := rs.Set("claude")
	verdict, steps := set.Explain(f.screen)
	if verdict != set.Classify(f.screen) {
		t.Errorf("Explain verdict %+v differs from Classify %+v", verdict, set.Classify(f.screen))
	}
	if len(steps) != len(set.rules) || steps[0].RuleID != "permission-menu" || !steps[0].Matched {
		t.Fatalf("steps = %+v", steps)
	}
	// The title spinner matched too, but lost on priority.
	found := false
	for _, s := range steps[1:] {
		found = found || (s.RuleID == "title-spinner" && s.Matched)
	}
	if !found {
		t.Errorf("title-spinner should show as matched but outranked: %+v", steps)
	}
	box, err := RegionText(Screen{Lines: []string{"╭──╮", "│ > hi │", "╰──╯"}}, "prompt_box")
	if err != nil || box != "> hi" {
		t.Errorf("RegionText = %q, %v", box, err)
	}
	if _, err := RegionText(Screen{}, "middle"); err == nil {
		t.Error("unknown region: want an error")
	}
}

func TestRulesExplain(t *testing.T) {
	rs, _ := Load(func(string) string { return "" })
	f := readFixture(t, "testdata/claude/blocked_bash.txt")
	e := rs.Explain("claude", f.screen)
	if e.Agent != "claude" || e.Rules != "embedded rules/claude.toml" || e.Verdict != rs.Classify("claude", f.screen) {
		t.Errorf("explanation = %+v", e)
	}
	decided := 0
	for i, s := range e.Steps {
		if s.Decided {
			decided++
			if !s.Matched || s.RuleID != e.Verdict.RuleID || i != 0 {
				t.Errorf("step %d decided: %+v", i, s)
			}
		}
		if i > 0 && s.Priority > e.Steps[i-1].Priority {
			t.Errorf("steps out of the order tried: %+v after %+v", s, e.Steps[i-1])
		}
	}
	if decided != 1 {
		t.Errorf("%d steps decided, want 1", decided)
	}
	// An agent without rules reads idle with no steps; one taw does not know reads nothing.
	if e := rs.Explain("crush", f.screen); len(e.Steps) != 0 || e.Verdict.State != "" || e.Rules != "" {
		t.Errorf("report-only agent: %+v", e)
	}
}
