package detect

import "github.com/taw-tmux/taw/helper/report"

// Explanation is how an agent's rules read one screen: the verdict Classify gives, and every rule
// in the order Classify tries them with whether it matched. It is what taw pane explain and taw
// detect print.
type Explanation struct {
	Agent   string
	Rules   string // where the rules came from ("embedded rules/claude.toml", an override's path); "" for none
	Verdict Verdict
	Steps   []Step
}

// Step is one rule's outcome on the screen.
type Step struct {
	RuleID   string
	State    string
	Priority int
	Region   string
	Matched  bool
	// Decided: this rule gave the verdict. A rule tried after it may match too; it lost on
	// priority (or on its place in the file).
	Decided  bool
	Evidence string
}

// Explain reads agentID's screen as Classify does, keeping every rule's outcome.
func (rs *Rules) Explain(agentID string, s Screen) Explanation {
	e := Explanation{Agent: agentID}
	set := rs.Set(agentID)
	if set == nil {
		e.Verdict = rs.Classify(agentID, s) // idle for a detected agent without rules
		return e
	}
	e.Rules = set.Source
	e.Verdict, e.Steps = set.Explain(s)
	return e
}

// Explain runs every rule of the set on a screen, in the order Classify tries them (highest
// priority first), and returns the verdict Classify gives with each rule's outcome.
func (set *RuleSet) Explain(s Screen) (Verdict, []Step) {
	v := newView(s)
	verdict := Verdict{State: report.StateIdle, RuleID: FallbackIdle}
	decided := false
	steps := make([]Step, 0, len(set.rules))
	for _, r := range set.rules {
		ok, ev := r.match.eval(v, r.region)
		step := Step{RuleID: r.id, State: r.state, Priority: r.priority, Region: r.region.String(), Matched: ok, Evidence: clip(ev)}
		if ok && !decided {
			decided, step.Decided = true, true
			verdict = Verdict{State: r.state, RuleID: r.id, Region: r.region.String(), Evidence: clip(ev)}
		}
		steps = append(steps, step)
	}
	return verdict, steps
}

// RegionText is a region of the screen ("screen", "bottom:12", "prompt_box", "title", …) as the
// rules see it: right-trimmed lines, the prompt box without its side borders.
func RegionText(s Screen, name string) (string, error) {
	r, err := parseRegion(name)
	if err != nil {
		return "", err
	}
	return newView(s).region(*r).joined, nil
}
