package tmuxfmt

import "strings"

// EscapeArg protects an argument from tmux's command splitter: an argument that ends in ";" is
// read as a command separator and the ";" dropped, unless the ";" is written "\;" (in which case
// tmux drops the backslash). So a value ending in ";" goes in with one backslash before it.
func EscapeArg(arg string) string {
	if strings.HasSuffix(arg, ";") {
		return arg[:len(arg)-1] + `\;`
	}
	return arg
}

// EscapeArgs applies EscapeArg to every argument.
func EscapeArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = EscapeArg(a)
	}
	return out
}

// QuoteString writes s as one double-quoted word of tmux's command language (a config file, a
// key binding, the command of a hook). Inside double quotes tmux treats \ as an escape and
// expands $VAR and ~, so those are escaped; # is escaped so formats are never expanded.
func QuoteString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '\\', '"', '$', '#', '~':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

// Word writes s as one word of tmux's command language: as it is when it is made of letters,
// digits and @ % _ . / : + = , - only (a command's name, a flag, a pane, an option), else quoted
// with QuoteString.
func Word(s string) string {
	if s == "" {
		return `""`
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("@%_./:+=,-", c) >= 0) {
			return QuoteString(s)
		}
	}
	return s
}

// Literal writes s so tmux's format expansion leaves it as it is: every # is doubled, so a
// "#{…}" or "#[…]" in a path, a name or an agent's text reaches tmux's output unexpanded.
// Arguments tmux runs through formats include display-message's message, run-shell's command,
// new-window -c, pipe-pane's command and the names of windows and sessions.
func Literal(s string) string { return strings.ReplaceAll(s, "#", "##") }

// Value writes s so tmux's format expansion stores it byte for byte, for a value kept rather
// than drawn (a session or window name, a pane title, a directory): every # is doubled except a
// run of them before [, which the expansion copies as it is (it leaves a style to whoever draws
// the text), so Literal would turn a title's "#[" into "##[".
func Value(s string) string {
	if !strings.Contains(s, "#") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		if s[i] != '#' {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '#' {
			j++
		}
		b.WriteString(s[i:j])
		if j == len(s) || s[j] != '[' {
			b.WriteString(s[i:j])
		}
		i = j
	}
	return b.String()
}

// Message writes s so display-message shows it as it is on every release: its message is
// expanded as a format (#) and as a time (%, strftime). (display-message -l, from tmux 3.4, would
// show it as it is too; this needs no release check.)
func Message(s string) string { return strings.NewReplacer("#", "##", "%", "%%").Replace(s) }

// Operand writes s so a format expands it to itself where it is an operand of a comparison, as
// in #{==:#{@x},<s>}: every # is doubled, and the , and } that would end the operand or the
// format are written #, and #}.
func Operand(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '#', ',', '}':
			b.WriteByte('#')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
