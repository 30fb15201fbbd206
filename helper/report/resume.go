package report

import (
	"fmt"
	"github.com/taw-tmux/taw/helper/coded"
	"strings"
	"unicode/utf8"

	"github.com/taw-tmux/taw/helper/ctrl"
	"github.com/taw-tmux/taw/helper/shellquote"
	"github.com/taw-tmux/taw/helper/tmuxfmt"
)

// Limits of a reported resume command.
const (
	MaxResumeWords = 64
	MaxResumeBytes = 8192
)

// resumeSendOverhead is what the restore's send-keys call costs besides the command itself:
// "tmux", the server flags, "send-keys", "-t", a pane id, "-l" and "--", generously counted.
const resumeSendOverhead = 512

// isCommandName: letters, digits, _ . and -, not starting with - (and not empty). A hook checks
// it at every event, so it is a loop rather than a pattern to compile.
func isCommandName(s string) bool {
	return s != "" && s[0] != '-' && onlyBytes(s, "_.-")
}

// onlyBytes says whether s is made of ASCII letters, digits and the bytes of extra only.
func onlyBytes(s, extra string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(extra, c) >= 0) {
			return false
		}
	}
	return true
}

// ResumeError says why a resume command was refused.
type ResumeError struct{ Reason string }

func (e *ResumeError) Error() string     { return "resume command refused: " + e.Reason }
func (e *ResumeError) ErrorCode() string { return coded.InvalidResumeArgv }

// ValidateResume checks a reported resume command against the contract's rules. onPath says
// whether a command name is found on the reporting process's PATH. An empty argv is no command
// and is valid.
func ValidateResume(argv []string, onPath func(string) bool) error {
	if len(argv) == 0 {
		return nil
	}
	if len(argv) > MaxResumeWords {
		return &ResumeError{fmt.Sprintf("%d words, at most %d are allowed", len(argv), MaxResumeWords)}
	}
	if err := CheckWords(argv); err != nil {
		return err
	}
	return checkCommand(argv, onPath)
}

// CheckWords checks what the words of every command taw types at a shell must be (a resume
// command, a restored program): valid UTF-8, no apostrophe and no control character in any
// word, so single quotes carry each word, and at most MaxResumeBytes in all, with the spaces
// between them. The *ResumeError's Reason says which word broke which rule.
func CheckWords(argv []string) error {
	total := len(argv) - 1
	for i, w := range argv {
		total += len(w)
		if !utf8.ValidString(w) {
			return &ResumeError{fmt.Sprintf("word %d is not valid UTF-8", i+1)}
		}
		if strings.ContainsRune(w, '\'') {
			return &ResumeError{fmt.Sprintf("word %d holds an apostrophe, which no word may", i+1)}
		}
		if strings.IndexFunc(w, ctrl.Unsafe) >= 0 {
			return &ResumeError{fmt.Sprintf("word %d holds a control character or a mark that changes text's direction, which no word may", i+1)}
		}
	}
	if total > MaxResumeBytes {
		return &ResumeError{fmt.Sprintf("%d bytes, at most %d are allowed", total, MaxResumeBytes)}
	}
	return nil
}

// checkCommand checks the command's name, and its length once quoted for tmux.
func checkCommand(argv []string, onPath func(string) bool) error {
	name := argv[0]
	if !isCommandName(name) {
		return &ResumeError{fmt.Sprintf("first word %q is not a plain command name (letters, digits, _, - and ., not starting with -); use the name on PATH, not a path", name)}
	}
	if onPath != nil && !onPath(name) {
		return &ResumeError{fmt.Sprintf("first word %q is not a command on PATH", name)}
	}
	if n := len(TmuxQuotedLine(argv)) + resumeSendOverhead; n > MaxTmuxCommand {
		return &ResumeError{fmt.Sprintf("too long for one tmux command once quoted for tmux (%d bytes, at most %d)", n, MaxTmuxCommand)}
	}
	return nil
}

// MaxTmuxCommand is the most one tmux client call carries (see tmux.MaxCommandBytes).
const MaxTmuxCommand = 16384 - 16 - 4

// TmuxQuotedLine is the shell line as one double-quoted word of tmux's command language, the
// form whose size the tmux command limit applies to.
func TmuxQuotedLine(argv []string) string {
	return tmuxfmt.QuoteString(shellquote.Line(shellquote.POSIX, argv))
}
