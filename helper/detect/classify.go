package detect

import (
	"strings"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/report"
)

// Verdict is what an agent's screen says it is doing, and why.
type Verdict struct {
	State    string // idle, working or blocked; "" for an agent taw has no rules for
	RuleID   string // the rule that matched, or "fallback:idle" when none did
	Region   string // the region that rule looks at
	Evidence string // the text that matched: a line, or what a regex matched
	Setup    bool   // the rule reads a start-up dialog (trust, sign-in): no turn runs
}

// Reads says whether a rule of the set reads state: an agent whose rules read no idle screen
// is idle only by the fallback.
func (set *RuleSet) Reads(state string) bool {
	if set == nil {
		return false
	}
	for _, r := range set.rules {
		if r.state == state {
			return true
		}
	}
	return false
}

// FallbackIdle is the RuleID of a verdict where no rule matched: a known agent showing nothing
// taw recognises is taken to be idle, so that blocked needs clear evidence.
const FallbackIdle = "fallback:idle"

// maxEvidence bounds Evidence, which ends up in pane options and explain output.
const maxEvidence = 160

// Classify reads what agentID is doing from its screen: the highest-priority rule that matches
// decides (a tie goes to the rule written first); a detected agent whose screen matches no rule
// is idle. An agent taw does not detect gets an empty verdict.
func (rs *Rules) Classify(agentID string, s Screen) Verdict {
	if rs != nil {
		if set, ok := rs.sets[agentID]; ok {
			return set.Classify(s)
		}
	}
	if a, ok := agents.Lookup(agentID); ok && a.Detected && a.ID == agentID {
		return Verdict{State: report.StateIdle, RuleID: FallbackIdle}
	}
	return Verdict{}
}

// Classify reads the set's agent's state from a screen.
func (set *RuleSet) Classify(s Screen) Verdict {
	v := newView(s)
	for _, r := range set.rules {
		if ok, ev := r.match.eval(v, r.region); ok {
			return Verdict{State: r.state, RuleID: r.id, Region: r.region.String(), Evidence: clip(ev), Setup: r.setup}
		}
	}
	return Verdict{State: report.StateIdle, RuleID: FallbackIdle}
}

// eval says whether m holds on its region of the screen, with the text that first matched.
func (m *matcher) eval(v *view, reg region) (bool, string) {
	if m.region != nil {
		reg = *m.region
	}
	t := v.region(reg)
	evidence := ""
	if len(m.contains) > 0 {
		t.lowered()
		for _, needle := range m.contains {
			i := strings.Index(t.lowerJ, needle)
			if i < 0 {
				return false, ""
			}
			if evidence == "" {
				evidence = lineAt(t, i)
			}
		}
	}
	for _, re := range m.regex {
		loc := re.find(t)
		if loc == nil {
			return false, ""
		}
		if evidence == "" {
			evidence = t.joined[loc[0]:loc[1]]
			if strings.TrimSpace(evidence) == "" {
				evidence = lineAtJoined(t.joined, loc[0])
			}
		}
	}
	for _, sub := range m.all {
		ok, ev := sub.eval(v, reg)
		if !ok {
			return false, ""
		}
		if evidence == "" {
			evidence = ev
		}
	}
	if len(m.any) > 0 {
		found := false
		for _, sub := range m.any {
			if ok, ev := sub.eval(v, reg); ok {
				found = true
				if evidence == "" {
					evidence = ev
				}
				break
			}
		}
		if !found {
			return false, ""
		}
	}
	for _, sub := range m.not {
		if ok, _ := sub.eval(v, reg); ok {
			return false, ""
		}
	}
	return true, evidence
}

// lineAt is the original line holding byte i of the lower-cased joined text. Lower-casing may
// change byte lengths, so the line is found by counting newlines, which it keeps.
func lineAt(t *text, i int) string {
	n := strings.Count(t.lowerJ[:i], "\n")
	if n < len(t.lines) {
		return t.lines[n]
	}
	return ""
}

func lineAtJoined(s string, i int) string {
	start := strings.LastIndexByte(s[:i], '\n') + 1
	end := strings.IndexByte(s[i:], '\n')
	if end < 0 {
		return s[start:]
	}
	return s[start : i+end]
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= maxEvidence {
		return s
	}
	cut := maxEvidence
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
