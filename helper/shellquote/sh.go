package shellquote

import "strings"

// Quoted writes w as one word for /bin/sh: always in single quotes, each apostrophe closing the
// quotes, escaped with a backslash, and reopening them. It is
// for the sh lines taw builds itself (hooks, keys, run-shell, display-popup, pipe-pane); tmux
// expands a #{…} inside the quotes before sh reads the line, which is what hooks rely on.
func Quoted(w string) string { return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'" }

// QuotedLine is the words quoted one by one and joined with spaces.
func QuotedLine(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = Quoted(w)
	}
	return strings.Join(q, " ")
}
