// Package procinfo is the I/O edge that reads which processes hold a pane's terminal: the
// terminal's foreground process group, its leader and their argv and agent hints. On Linux it
// reads /proc (one stat file for the cheap check); elsewhere it asks ps. Naming the agent from
// what it returns is package detect's job, not this one's.
package procinfo
