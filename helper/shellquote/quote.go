package shellquote

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// Shell is a family of shells that read quoted words and typed lines the same way.
type Shell int

const (
	// POSIX shells (bash, dash, sh, ash, yash): inside single quotes every byte is itself.
	POSIX Shell = iota
	// Zsh is POSIX, but its line editor turns a typed U+E000 to U+E0FF into the single byte
	// it stands for (zsh keeps undecodable bytes there), so those are written $'\uXXXX'.
	Zsh
	// Ksh93 is POSIX, but its line editor scrambles multibyte characters in a line of more
	// than about 80 bytes and in typed-ahead lines, so every character beyond ASCII is written
	// $'\uXXXX' and the typed lines are ASCII only.
	Ksh93
	// Fish reads \' and \\ inside single quotes, and expands a bare %self.
	Fish
	// Unsupported shells (csh, tcsh, nushell, elvish, xonsh, PowerShell) expand or split words in
	// ways single quotes do not stop (csh expands ! inside them); nothing is typed into them.
	Unsupported
)

func (s Shell) String() string {
	switch s {
	case POSIX:
		return "posix"
	case Zsh:
		return "zsh"
	case Ksh93:
		return "ksh93"
	case Fish:
		return "fish"
	}
	return "unsupported"
}

// shells is taw's one list of shell names: the programs people run as a pane's shell, each with
// the family that reads its words. mksh and the pdksh family read typed multibyte characters well
// and are POSIX here (mksh's $'\U…' knows no character beyond U+FFFF); busybox is no name here,
// as its shell runs under the name of its applet (sh, ash).
var shells = map[string]Shell{
	"sh": POSIX, "bash": POSIX, "dash": POSIX, "ash": POSIX, "yash": POSIX, "mksh": POSIX,
	"oksh": POSIX, "pdksh": POSIX, "osh": POSIX, "ysh": POSIX,
	"zsh":  Zsh,
	"fish": Fish,
	"ksh":  Ksh93, "ksh93": Ksh93, "ksh2020": Ksh93, "rksh": Ksh93, "rksh93": Ksh93,
	"csh": Unsupported, "tcsh": Unsupported, "nu": Unsupported, "nushell": Unsupported,
	"elvish": Unsupported, "xonsh": Unsupported, "pwsh": Unsupported, "powershell": Unsupported,
	"rc": Unsupported, "es": Unsupported, "ion": Unsupported, "murex": Unsupported,
}

// programName is a program as shells names it: "-bash" (a login shell's argv[0]) and
// "/usr/bin/fish" are bash and fish.
func programName(name string) string {
	return path.Base(strings.TrimPrefix(strings.TrimSpace(name), "-"))
}

// IsShell says whether a program, named as tmux's pane_current_command, a process's comm or
// its argv[0] names it, is a shell.
func IsShell(name string) bool {
	_, ok := shells[programName(name)]
	return ok
}

// ForProgram is the shell family of a pane's program, named as tmux's pane_current_command or
// a process's argv[0] names it ("-bash", "/usr/bin/fish", "sh"). A program this package does not
// know is taken for a POSIX shell, which is what a pane's shell nearly always is.
func ForProgram(name string) Shell {
	if sh, ok := shells[programName(name)]; ok {
		return sh
	}
	return POSIX
}

// bareWord is what every supported shell reads as itself without quotes.
var bareWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_\-./:@%+]+$`) })

// Word is w written for shell s: bare when it is made of letters, digits and _ - . / : @ % +,
// in single quotes otherwise (so a word with = is quoted too, which zsh could read as a path).
// Fish also gets any word with % quoted (a bare %self is its pid) and backslashes doubled inside
// the quotes. w never holds an apostrophe (the resume rules refuse one), so single quotes suffice.
func Word(s Shell, w string) string {
	if bareWord().MatchString(w) && !(s == Fish && strings.Contains(w, "%")) {
		return w
	}
	return quote(s, w)
}

func quote(s Shell, w string) string {
	switch s {
	case Fish:
		return "'" + strings.ReplaceAll(w, `\`, `\\`) + "'"
	case Zsh, Ksh93:
		escaped := escapedFor(s)
		if strings.IndexFunc(w, escaped) < 0 {
			break
		}
		var b strings.Builder
		open := false
		for _, r := range w {
			if escaped(r) {
				if open {
					b.WriteByte('\'')
					open = false
				}
				b.WriteString(dollarQuote(r))
				continue
			}
			if !open {
				b.WriteByte('\'')
				open = true
			}
			b.WriteRune(r)
		}
		if open {
			b.WriteByte('\'')
		}
		return b.String()
	}
	return "'" + w + "'"
}

// escapedFor says which characters shell s gets as $'\u…' escapes rather than as themselves.
func escapedFor(s Shell) func(rune) bool {
	switch s {
	case Zsh:
		return zshByteChar
	case Ksh93:
		return func(r rune) bool { return r >= utf8.RuneSelf }
	}
	return func(rune) bool { return false }
}

// dollarQuote is r as a $'…' escape.
func dollarQuote(r rune) string {
	if r > 0xFFFF {
		return fmt.Sprintf(`$'\U%08X'`, r)
	}
	return fmt.Sprintf(`$'\u%04X'`, r)
}

// zshByteChar is a character zsh's line editor reads as the byte it keeps undecodable input in.
func zshByteChar(r rune) bool { return r >= 0xE000 && r <= 0xE0FF }

// Line is the whole command on one line, as a person would type it into shell s.
func Line(s Shell, argv []string) string {
	words := make([]string, len(argv))
	for i, w := range argv {
		words[i] = Word(s, w)
	}
	return strings.Join(words, " ")
}

// MaxLineBytes is the longest line Lines types. A shell that reads through the terminal's
// canonical line buffer (dash, sh without an editor) gets at most 4,095 bytes of one line and
// drops the rest; busybox ash's editor keeps 1,024. 512 is well inside both.
const MaxLineBytes = 512

// Lines is argv as shell s reads it, in lines of at most MaxLineBytes bytes (continuation
// backslash included), each to be typed and followed by Enter. Lines after the first continue
// the one before with a backslash-newline outside any quotes, which every supported shell joins
// back into one command; a long word is cut into pieces quoted one by one and written side by
// side, which the shell reads as one word. No line ends inside quotes, so a line the terminal
// might cut never leaves a quote open.
func Lines(s Shell, argv []string) ([]string, error) {
	if s == Unsupported {
		return nil, fmt.Errorf("no quoting is known to be right for this shell")
	}
	for i, w := range argv {
		if strings.ContainsRune(w, '\'') {
			return nil, fmt.Errorf("word %d holds an apostrophe", i+1)
		}
		if !utf8.ValidString(w) {
			return nil, fmt.Errorf("word %d is not valid UTF-8", i+1)
		}
		if s == Fish {
			if r, ok := fishUnreadable(w); ok {
				return nil, fmt.Errorf("word %d holds U+%04X, which fish drops from what is typed at its prompt", i+1, r)
			}
		}
	}
	// Room on a line for text, leaving one byte for the continuation backslash.
	const room = MaxLineBytes - 1
	var lines []string
	var cur strings.Builder
	flush := func() {
		lines = append(lines, cur.String()+`\`)
		cur.Reset()
	}
	for i, w := range argv {
		if i > 0 {
			if cur.Len()+1 > room {
				flush()
			}
			cur.WriteByte(' ')
		}
		whole := Word(s, w)
		if cur.Len()+len(whole) <= room {
			cur.WriteString(whole)
			continue
		}
		if len(whole) <= room && cur.Len() > 0 {
			flush()
			cur.WriteString(whole)
			continue
		}
		// Too long for any line: write it as quoted pieces side by side.
		rest := w
		for rest != "" {
			free := room - cur.Len()
			piece := cut(s, rest, free)
			if piece == "" {
				flush()
				continue
			}
			cur.WriteString(quote(s, piece))
			rest = rest[len(piece):]
			if rest != "" {
				flush()
			}
		}
	}
	return append(lines, cur.String()), nil
}

// cut is the longest start of w, ending on a whole character, whose quoted form for s takes at
// most free bytes.
func cut(s Shell, w string, free int) string {
	escaped := escapedFor(s)
	n, open := 0, false
	for i, r := range w {
		var size int
		switch {
		case escaped(r):
			size, open = len(dollarQuote(r)), false
		case s == Fish && r == '\\':
			size = 2
		default:
			size = utf8.RuneLen(r)
		}
		if !open && !escaped(r) {
			size += 2 // a new pair of quotes opens
			open = true
		}
		if n+size > free {
			return w[:i]
		}
		n += size
	}
	return w
}

// fishUnreadable finds a character fish keeps for its own use and drops from typed input: the
// private-use characters U+F600 to U+F73F and the non-characters U+FDD0 to U+FDEF.
func fishUnreadable(w string) (rune, bool) {
	for _, r := range w {
		if (r >= 0xF600 && r <= 0xF73F) || (r >= 0xFDD0 && r <= 0xFDEF) {
			return r, true
		}
	}
	return 0, false
}
