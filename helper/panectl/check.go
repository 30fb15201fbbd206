package panectl

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/taw-tmux/taw/helper/coded"
)

// Limits of what one call types or starts.
const (
	MaxText  = 256 * 1024
	MaxLabel = 80
	MaxArgv  = 256
	MaxArg   = 16 * 1024
	MaxEnv   = 64
)

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,127}$`)

// hasControl says whether s holds a control character other than the ones allowed.
func hasControl(s string, allowed string) bool {
	return strings.ContainsFunc(s, func(r rune) bool {
		return (r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0)) && !strings.ContainsRune(allowed, r)
	})
}

// CheckText refuses text to type that is not UTF-8, too long, or holds control characters other
// than newline and tab (an Escape inside it would act as a key: send keys for that).
func CheckText(what, s string) error {
	switch {
	case !utf8.ValidString(s):
		return coded.Errorf(coded.InvalidArgument, "%s is not valid UTF-8", what)
	case len(s) > MaxText:
		return coded.Errorf(coded.InvalidArgument, "%s is %d bytes; at most %d fit", what, len(s), MaxText)
	case hasControl(s, "\n\t"):
		return coded.Errorf(coded.InvalidArgument, "%s holds a control character: send it as keys (send_keys)", what)
	}
	return nil
}

// CheckLabel refuses a label (a session's, a window's, a pane's title) tmux cannot hold as it
// is: control characters, a name tmux reads as a target (":" and "." in a session's name).
func CheckLabel(label string, session bool) error {
	switch {
	case !utf8.ValidString(label) || hasControl(label, ""):
		return coded.Errorf(coded.InvalidArgument, "invalid label %q: it holds a control character", label)
	case len(label) > MaxLabel:
		return coded.Errorf(coded.InvalidArgument, "invalid label: %d bytes; at most %d", len(label), MaxLabel)
	case strings.TrimSpace(label) == "":
		return coded.Errorf(coded.InvalidArgument, "invalid label: it is empty")
	case session && strings.ContainsAny(label, ":."):
		return coded.Errorf(coded.InvalidArgument, "invalid label %q: a session's name cannot hold ':' or '.'", label)
	}
	return nil
}

// CheckArgv refuses a command that cannot be started as it is.
func CheckArgv(argv []string) error {
	if len(argv) > MaxArgv {
		return coded.Errorf(coded.InvalidArgument, "the command has %d words; at most %d", len(argv), MaxArgv)
	}
	if len(argv) > 0 && argv[0] == "" {
		return coded.Errorf(coded.InvalidArgument, "the command's program is empty")
	}
	for _, a := range argv {
		if !utf8.ValidString(a) || strings.ContainsRune(a, 0) || len(a) > MaxArg {
			return coded.Errorf(coded.InvalidArgument, "the command's word %q is not plain text of at most %d bytes", a, MaxArg)
		}
	}
	return nil
}

// CheckEnv refuses variables that are not NAME=value with a plain name and a value without
// control characters.
func CheckEnv(env map[string]string) error {
	if len(env) > MaxEnv {
		return coded.Errorf(coded.InvalidArgument, "%d variables; at most %d", len(env), MaxEnv)
	}
	for k, v := range env {
		if !envName.MatchString(k) {
			return coded.Errorf(coded.InvalidArgument, "invalid variable name %q (letters, digits and _, not starting with a digit)", k)
		}
		if !utf8.ValidString(v) || hasControl(v, "") || len(v) > MaxArg {
			return coded.Errorf(coded.InvalidArgument, "invalid value of %s: plain text of at most %d bytes", k, MaxArg)
		}
	}
	return nil
}

// CheckDir is an absolute folder that exists; relative ones are refused (a server has no
// caller's folder to read them from).
func CheckDir(dir string) (string, error) {
	if !filepath.IsAbs(dir) {
		return "", coded.Errorf(coded.InvalidArgument, "invalid cwd %q: give an absolute path", dir)
	}
	if hasControl(dir, "") {
		return "", coded.Errorf(coded.InvalidArgument, "invalid cwd: it holds a control character")
	}
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return "", coded.Errorf(coded.InvalidArgument, "invalid cwd %q: no such folder", dir)
	}
	return filepath.Clean(dir), nil
}
