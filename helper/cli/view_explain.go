package cli

import (
	"fmt"
	"strings"

	"github.com/taw-tmux/taw/helper/detect"
)

// How an agent's rules read a screen, as taw pane explain and taw detect print it: one view for
// JSON and one printer for text, so both verbs say it the same way.

// screenView is the JSON shape of a screen's explanation. Field names are stable.
type screenView struct {
	Agent    string     `json:"agent"`
	Rules    *string    `json:"rules"`
	State    *string    `json:"state"`
	Rule     *string    `json:"rule"`
	Region   *string    `json:"region"`
	Evidence *string    `json:"evidence"`
	Tried    []ruleView `json:"tried"` // every rule in the order tried
}

type ruleView struct {
	Rule     string  `json:"rule"`
	State    string  `json:"state"`
	Priority int     `json:"priority"`
	Region   string  `json:"region"`
	Matched  bool    `json:"matched"`
	Decided  bool    `json:"decided"`
	Evidence *string `json:"evidence"`
}

func newScreenView(e detect.Explanation) *screenView {
	v := &screenView{Agent: e.Agent, Rules: nullable(e.Rules), State: nullable(e.Verdict.State),
		Rule: nullable(e.Verdict.RuleID), Region: nullable(e.Verdict.Region), Evidence: nullable(e.Verdict.Evidence),
		Tried: []ruleView{}}
	for _, s := range e.Steps {
		v.Tried = append(v.Tried, ruleView{Rule: s.RuleID, State: s.State, Priority: s.Priority, Region: s.Region,
			Matched: s.Matched, Decided: s.Decided, Evidence: nullable(s.Evidence)})
	}
	return v
}

// writeScreenText prints the verdict and then every rule in the order tried:
//
//	screen: codex (embedded rules/codex.toml)
//	  state: blocked by rule approval
//	  region: bottom:20
//	  matched: "Press enter to confirm or esc to cancel"
//	  rules, in the order tried:
//	    approval        blocked  prio 900  bottom:20  matched, decides: "Press enter…"
//	    interrupt-hint  working  prio 700  bottom:12  no match
func writeScreenText(b *strings.Builder, e detect.Explanation) {
	line := func(format string, args ...any) { fmt.Fprintf(b, format+"\n", args...) }
	rules := e.Rules
	if rules == "" {
		rules = "no rules"
	}
	line("screen: %s (%s)", e.Agent, rules)
	line("  state: %s by rule %s", orDash(e.Verdict.State), orDash(e.Verdict.RuleID))
	if e.Verdict.Region != "" {
		line("  region: %s", e.Verdict.Region)
	}
	if e.Verdict.Evidence != "" {
		line("  matched: %q", e.Verdict.Evidence)
	}
	if len(e.Steps) == 0 {
		return
	}
	idW, stateW, prioW, regionW := 0, 0, 0, 0
	for _, s := range e.Steps {
		idW, stateW, regionW = max(idW, len(s.RuleID)), max(stateW, len(s.State)), max(regionW, len(s.Region))
		prioW = max(prioW, len(fmt.Sprint(s.Priority)))
	}
	line("  rules, in the order tried:")
	for _, s := range e.Steps {
		outcome := "no match"
		switch {
		case s.Decided:
			outcome = fmt.Sprintf("matched, decides: %q", s.Evidence)
		case s.Matched:
			outcome = fmt.Sprintf("matched, outranked: %q", s.Evidence)
		}
		line("    %-*s  %-*s  prio %-*d  %-*s  %s", idW, s.RuleID, stateW, s.State, prioW, s.Priority, regionW, s.Region, outcome)
	}
	if e.Verdict.RuleID == detect.FallbackIdle {
		line("    (no rule matched: %s)", detect.FallbackIdle)
	}
}
