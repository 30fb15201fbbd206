// Package panestate keeps taw's facts about each pane in that pane's tmux user options, so
// status lines and other tools can read them and they die with the pane. It reads every fact of
// one pane (or of all panes) in one tmux call, writes only what changed in one more, and
// serialises writers to one pane with a lock file beside the server.
package panestate
