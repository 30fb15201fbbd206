// Package report holds the rules of the agent-reporting contract as pure functions over values:
// the seq book, the resume-command rules, and who holds a pane. Nothing here talks to tmux.
package report
