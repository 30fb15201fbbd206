package session

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/taw-tmux/taw/helper/report"
)

// TypedLine is the one place a restore turns an argv into the line it types at the pane's shell
// prompt, for agents' resume commands and for programs alike. It refuses an argv the quoting
// cannot carry so that no word is ever read as shell syntax.
func TypedLine(argv []string) (string, error) {
	if len(argv) == 0 || argv[0] == "" {
		return "", fmt.Errorf("no command")
	}
	total := 0
	for i, w := range argv {
		total += len(w) + 1
		if !utf8.ValidString(w) {
			return "", fmt.Errorf("word %d is not valid UTF-8", i+1)
		}
		if strings.IndexFunc(w, unicode.IsControl) >= 0 {
			return "", fmt.Errorf("word %d holds a control character", i+1)
		}
		if strings.ContainsRune(w, '\'') {
			return "", fmt.Errorf("word %d holds an apostrophe, which the typed line cannot quote", i+1)
		}
	}
	if total > report.MaxResumeBytes {
		return "", fmt.Errorf("%d bytes, at most %d are typed", total, report.MaxResumeBytes)
	}
	return report.ShellLine(argv), nil
}
