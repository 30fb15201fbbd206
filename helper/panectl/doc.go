// Package panectl changes and reads tmux's layout the way herdr's control surface does:
// workspaces are sessions, tabs are windows, panes are panes. It splits a pane (starting an
// argument vector directly, never through a shell), types text and keys, reads a pane's text,
// waits for output, and makes sessions, windows and git worktrees. Every value bound for tmux or
// a shell is checked first: nothing is half-applied.
package panectl
