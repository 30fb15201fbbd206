// Package notify tells the user when an agent needs a decision or finishes a turn. The rules are
// pure (Planner: which transitions notify, the recheck delay, the pane in view, per-agent
// switches, the rate limit); the channels (status-line message, bell, terminal escapes, desktop
// notifier, sound command) are at the edge, in send.go. Its observer runs in the pane watcher.
package notify
