// Package proctree ends a pane's whole process tree on Linux: the pane's first process, every
// process in the session it leads, and every descendant of those, read from /proc, so that
// children that left the terminal's process group or session do not survive. A process that
// both left the session and lost its parent cannot be told apart from any other and is left.
package proctree
