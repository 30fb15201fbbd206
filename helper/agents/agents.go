package agents

import "strings"

// Agent is one known coding agent.
type Agent struct {
	ID      string   // canonical name: "claude"
	Display string   // what people see: "Claude Code"
	Aliases []string // other names it goes by: program names, reported labels
}

// Known is the table, in no particular order.
var Known = []Agent{
	{ID: "claude", Display: "Claude Code", Aliases: []string{"claude-code", "claude_code", "claudecode"}},
	{ID: "codex", Display: "Codex", Aliases: []string{"codex-cli", "openai-codex"}},
}

var byName = func() map[string]*Agent {
	m := map[string]*Agent{}
	for i := range Known {
		a := &Known[i]
		m[a.ID] = a
		for _, alias := range a.Aliases {
			m[alias] = a
		}
	}
	return m
}()

// Lookup finds a known agent by its id or an alias, ignoring case.
func Lookup(name string) (*Agent, bool) {
	a, ok := byName[strings.ToLower(strings.TrimSpace(name))]
	return a, ok
}

// Canonical is the id of a known agent named name, or name itself (trimmed) for one taw does not
// know: a reported label of an agent of its own is kept as it was given.
func Canonical(name string) string {
	if a, ok := Lookup(name); ok {
		return a.ID
	}
	return strings.TrimSpace(name)
}
