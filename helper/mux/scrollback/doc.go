// Package scrollback keeps a pane's raw output the way the Conmux v1 protocol describes it: a
// bounded ring of bytes with absolute line numbers, the Capture ranges over it, the escape
// stripping for plain captures, and the terminal-mode tracker behind an Attach preamble. It is
// pure: no I/O, no locking (callers lock).
package scrollback
