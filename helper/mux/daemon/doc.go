// Package daemon serves the Conmux v1 protocol on a Unix socket: it checks each peer's identity
// and handshake, enforces frame directions, runs the 15 operations against panes hosted on
// tmux, keeps each pane's raw output, sequence numbers and terminal modes, fans output and exits
// out to subscribed connections through bounded queues, and shuts everything down on KillServer.
package daemon
