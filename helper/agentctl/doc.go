// Package agentctl acts on the agents of one tmux server: it finds an agent by its pane or its
// name, reads its screen, waits for a state, types a prompt, answers the dialog on its screen
// and starts a known agent. The command line, the herdr socket and the MCP server all act
// through it, so each check (no prompt into a dialog, only the dialog on screen answered) lives
// here once.
package agentctl
