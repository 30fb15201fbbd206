// Package detect names the coding agent in front of a pane from its processes (Identify) and
// reads what that agent is doing from its screen (Rules.Classify; Rules.Explain keeps every rule's
// outcome for taw pane explain and taw detect), with one TOML rule file per agent embedded in the
// binary and replaceable by the user. Everything here is pure: the
// processes come from package procinfo and the screen from tmux, both read by the caller.
package detect
