package attention

import (
	"sort"
	"strconv"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/report"
)

// StateDone is the state people see for an agent that finished a turn (working or blocked, then
// idle) while nobody was looking at its pane. It is never reported; looking at the pane turns it
// into idle.
const StateDone = "done"

// States lists every state a reader may see, most urgent first.
var States = []string{report.StateBlocked, StateDone, report.StateWorking, report.StateIdle, report.StateUnknown}

// ValidState says whether s is a state a reader may see (and wait for).
func ValidState(s string) bool { return Rank(s) >= 0 }

// Rank orders states by urgency: blocked > done > working > idle > unknown; -1 for anything
// else (no agent).
func Rank(state string) int {
	switch state {
	case report.StateBlocked:
		return 4
	case StateDone:
		return 3
	case report.StateWorking:
		return 2
	case report.StateIdle:
		return 1
	case report.StateUnknown:
		return 0
	}
	return -1
}

// Shown is the state people see for the pane's agent: its effective state, or done when it is
// idle after a turn nobody has looked at. Empty when the pane has no agent.
func Shown(p panestate.Pane) string {
	return ShownFrom(p.Agent(), p.State(), p.Options[panestate.OptDone])
}

// ShownFrom is Shown over the raw values: done only counts for the agent that finished, so an
// agent that replaced it in the pane does not inherit it.
func ShownFrom(agent, state, done string) string {
	if agent == "" {
		return ""
	}
	if state == report.StateIdle && done != "" && done == agent {
		return StateDone
	}
	if state == "" {
		return report.StateUnknown
	}
	return state
}

// NeedsAttention says whether the state asks for the user: blocked or done.
func NeedsAttention(state string) bool {
	return state == report.StateBlocked || state == StateDone
}

// Icon is the one-cell symbol of a state, as the popup, badges and summary show it.
func Icon(state string) string {
	switch state {
	case report.StateBlocked:
		return "!"
	case StateDone:
		return "✓"
	case report.StateWorking:
		return "●"
	case report.StateIdle:
		return "○"
	case report.StateUnknown:
		return "?"
	}
	return " "
}

// Colour is the tmux colour of a state's icon; empty for none.
func Colour(state string) string {
	switch state {
	case report.StateBlocked:
		return "red"
	case StateDone:
		return "green"
	case report.StateWorking:
		return "yellow"
	}
	return ""
}

// Badge is the state's icon in tmux style markup, ready for a status line. The colour is reset to
// the surrounding style (fg=default is the style the format is drawn in), so a theme is kept.
func Badge(state string) string {
	if state == "" {
		return ""
	}
	if c := Colour(state); c != "" {
		return "#[fg=" + c + "]" + Icon(state) + "#[fg=default]"
	}
	return Icon(state)
}

// Order sorts panes most urgent first (blocked, done, working, idle, unknown, no agent); within a
// state the one in it longest comes first, then the order they came in.
func Order(panes []panestate.Pane) {
	sort.SliceStable(panes, func(i, j int) bool {
		ri, rj := Rank(Shown(panes[i])), Rank(Shown(panes[j]))
		if ri != rj {
			return ri > rj
		}
		return since(panes[i]) < since(panes[j])
	})
}

func since(p panestate.Pane) int64 {
	n, err := strconv.ParseInt(p.Options[panestate.OptStateSince], 10, 64)
	if err != nil {
		return 1<<63 - 1
	}
	return n
}

// Next is the agent to go to after current: the next of those that need attention (blocked
// first, then done, each the longest waiting first), wrapping around; the first of them when
// current is not one. False when no agent needs attention.
func Next(panes []panestate.Pane, current string) (panestate.Pane, bool) {
	var want []panestate.Pane
	seen := map[string]bool{}
	for _, p := range panes {
		if NeedsAttention(Shown(p)) && !seen[p.ID] {
			seen[p.ID] = true
			want = append(want, p)
		}
	}
	if len(want) == 0 {
		return panestate.Pane{}, false
	}
	Order(want)
	for i, p := range want {
		if p.ID == current {
			return want[(i+1)%len(want)], true
		}
	}
	return want[0], true
}
