package shellquote

import "strings"

// Words cuts a line into words at blanks (spaces, tabs, newlines), keeping a 'single' or
// "double" quoted part whole, without its quotes. It reads the simple lines taw writes for
// itself (a saved resume command) and tmux-resurrect's settings; it knows no backslash escape,
// so it is not a shell's reader and does not read back Quoted's escaped apostrophes.
func Words(line string) []string {
	var words []string
	var cur strings.Builder
	var quote rune
	inWord := false
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}
