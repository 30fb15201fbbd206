// Package shellquote is the one home of shell quoting: how a command's words are written so the
// shell really running in a pane reads them back byte for byte, and how a long command is typed
// in lines short enough for a terminal's line buffer. Its functions are pure; finding out which
// shell a pane runs is the caller's.
package shellquote
