// Package procinfo is the I/O edge that reads which processes hold a pane's terminal: the
// terminal's foreground process group, its leader and their argv, executables and agent hints,
// and the mark (group, name, start time) that tells when the process in front changed. On Linux
// it reads /proc (one stat file for the mark); elsewhere it asks ps. Naming the agent from
// what it returns is package detect's job, not this one's.
package procinfo
