package panestate

import (
	"strings"

	"github.com/taw-tmux/taw/helper/agents"
)

// AgentPanes are the panes that run an agent, each once (a window linked into several sessions
// lists its panes once per session), in tmux's order.
func AgentPanes(panes []Pane) []Pane {
	var out []Pane
	seen := map[string]bool{}
	for _, p := range panes {
		if p.Agent() == "" || seen[p.ID] {
			continue
		}
		seen[p.ID] = true
		out = append(out, p)
	}
	return out
}

// AgentsNamed are the panes whose agent goes by name: its id, an alias, or its display name,
// ignoring case.
func AgentsNamed(panes []Pane, name string) []Pane {
	want := strings.ToLower(agents.Canonical(name))
	var out []Pane
	for _, p := range panes {
		id := strings.ToLower(p.Agent())
		display := id
		if a, ok := agents.Lookup(p.Agent()); ok {
			display = strings.ToLower(a.Display)
		}
		if id == want || display == strings.ToLower(strings.TrimSpace(name)) {
			out = append(out, p)
		}
	}
	return out
}
