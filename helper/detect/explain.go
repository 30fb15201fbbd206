package detect

import "github.com/taw-tmux/taw/helper/report"

// Step is one rule's outcome on a screen, for taw pane explain and for people writing rules.
type Step struct {
	RuleID   string
	State    string
	Priority int
	Region   string
	Matched  bool
	Evidence string
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
		steps = append(steps, Step{RuleID: r.id, State: r.state, Priority: r.priority, Region: r.region.String(), Matched: ok, Evidence: clip(ev)})
		if ok && !decided {
			decided = true
			verdict = Verdict{State: r.state, RuleID: r.id, Region: r.region.String(), Evidence: clip(ev)}
		}
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
