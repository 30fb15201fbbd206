// Package popup is the agents popup: a pure model (rows, filter, selection, scrolling) and view
// (exact lines for a terminal of any size), and a small raw-mode terminal loop that feeds it keys,
// fresh rows and the selected pane's screen. It knows nothing of tmux: the caller hands it a
// Source and acts on the pane chosen once Run returns.
package popup
