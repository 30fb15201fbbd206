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
