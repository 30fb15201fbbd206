// Package events turns the watcher's transitions into agent events (state_changed, blocked,
// finished, agent_appeared, agent_gone) and runs the user's [hooks] commands and enabled
// plugins' [[events]] commands for them, detached under a time limit. Its observer runs in the
// pane watcher.
package events
