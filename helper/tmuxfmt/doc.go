// Package tmuxfmt holds the small escaping rules of tmux's argument parser and command language,
// each a pure function with a table test.
package tmuxfmt
