package tmux

// ListAllPanes is the call that prints one row of format for every pane of the server, in every
// session and window.
func ListAllPanes(format string) Cmd { return Cmd{"list-panes", "-a", "-F", format} }
