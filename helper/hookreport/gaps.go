package hookreport

import "github.com/taw-tmux/taw/helper/agents"

// MayGoStale says whether agent's hooks can leave state standing after the agent has gone
// back to its prompt: what its catalogue entry's Hooks.Stale says its current version leaves
// unsaid. For these, taw's pane watcher lets a screen that clearly shows the agent idle correct
// the hook (see watch.Decide).
func MayGoStale(agent, state string) bool {
	h := agents.HooksOf(agent)
	if h == nil {
		return false
	}
	for _, s := range h.Stale {
		if s == state {
			return true
		}
	}
	return false
}
