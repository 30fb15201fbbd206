package tmux

// ListAllPanes is the call that prints one row of format for every pane of the server, in every
// session and window.
func ListAllPanes(format string) Cmd { return Cmd{"list-panes", "-a", "-F", format} }

// KillSession is the commands that end a session: every window but its current one killed, then
// that one, which ends it. kill-session itself crashes the tmux 3.4 server when the session holds
// a zoomed window (fixed in 3.5); killing windows does not, on any release.
func KillSession(session string) []Cmd {
	return []Cmd{{"kill-window", "-a", "-t", session + ":"}, {"kill-window", "-t", session + ":"}}
}
