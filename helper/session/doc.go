// Package session saves a tmux server's sessions, windows and panes, with taw's agent facts, to
// versioned JSON documents under $XDG_DATA_HOME/taw/sessions, and restores them into a running
// server: it recreates what is missing and types each pane's resume command once the pane's shell
// is at its prompt. The rules (the document, the restore plan, the resume table, the typing plan,
// reading tmux-resurrect files) are pure; the store and the tmux calls sit at the edges.
package session
