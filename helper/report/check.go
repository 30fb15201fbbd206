package report

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/taw-tmux/taw/helper/ctrl"
)

// Limits on what a report carries besides the contract's own. Every way in (the command line and
// the herdr socket) holds reports to the same ones.
const (
	MaxSourceBytes       = 128
	MaxAgentBytes        = 128
	MaxMessageBytes      = 512
	MaxSessionIDBytes    = 512
	MaxSessionPathBytes  = 4096
	MaxSessionStartBytes = 32
)

// CheckText validates a name or id a report carries: trimmed, 1 to max bytes of UTF-8, no
// control characters. The error reads after the field's name ("--source is empty: …").
func CheckText(v string, max int) (string, error) {
	t := strings.TrimSpace(v)
	switch {
	case t == "":
		return "", fmt.Errorf("is empty: give a name")
	case len(t) > max:
		return "", fmt.Errorf("is %d bytes long, at most %d are allowed", len(t), max)
	case ctrl.Has(t):
		return "", fmt.Errorf("holds a control character, a mark that changes text's direction or invalid UTF-8: use printable text")
	}
	return t, nil
}

// CheckOptionalText is CheckText for a field that may be given empty (which clears it).
func CheckOptionalText(v string, max int) (string, error) {
	if strings.TrimSpace(v) == "" {
		return "", nil
	}
	return CheckText(v, max)
}

// CheckSession is CheckOptionalText for an agent's session id or path, which a restore types into
// the agent's resume command after an option (claude --resume <id>): one starting with - would be
// read as an option instead (--dangerously-skip-permissions), so it is refused.
func CheckSession(v string, max int) (string, error) {
	t, err := CheckOptionalText(v, max)
	if err == nil && strings.HasPrefix(t, "-") {
		return "", fmt.Errorf("%w: the agent would read it as an option", ErrSessionDash)
	}
	return t, err
}

// ErrSessionDash: a session id or path starts with -.
var ErrSessionDash = errors.New("starts with -")

// CleanMessage keeps a message printable and short: control characters become spaces and it is
// cut, at a character boundary, to MaxMessageBytes.
func CleanMessage(m string) string {
	m = strings.TrimSpace(ctrl.Printable(m))
	for len(m) > MaxMessageBytes {
		_, size := utf8.DecodeLastRuneInString(m)
		m = m[:len(m)-size]
	}
	return m
}
