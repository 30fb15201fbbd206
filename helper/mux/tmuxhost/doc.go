// Package tmuxhost runs Conmux v1 panes on tmux: one window per pane in one session, output read
// raw through pipe-pane into a FIFO per pane generation, input written with send-keys -H, sizes
// set on the window, exits read from pane_dead. Every tmux call goes through helper/tmux.
package tmuxhost
