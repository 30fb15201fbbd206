package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/taw-tmux/taw/helper/ctrl"
)

// marshalJSON is compact JSON without HTML escaping: < > & stay as they are in messages and
// commands. DEL and the C1 controls, which encoding/json leaves raw and some terminals read as
// the start of an escape sequence (U+009B is CSI), are written \u escaped.
func marshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return escapeRawControls(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// escapeRawControls escapes the control characters encoding/json leaves as they are; they occur
// only inside JSON strings, where a \u escape means the same.
func escapeRawControls(b []byte) []byte {
	if !bytes.ContainsFunc(b, raw) {
		return b
	}
	var out bytes.Buffer
	for _, r := range string(b) {
		if raw(r) {
			fmt.Fprintf(&out, `\u%04x`, r)
			continue
		}
		out.WriteRune(r)
	}
	return out.Bytes()
}

// raw: DEL, C1 and the direction marks, which encoding/json writes as they are (it escapes C0).
func raw(r rune) bool { return r >= 0x20 && ctrl.Unsafe(r) }

// visibleText is text for a terminal with every control character (but newlines) and every
// invisible format character shown as an escape, so a process's argv or a pane's title cannot
// move the cursor, clear the screen, set the clipboard (OSC 52) or reorder what follows.
func visibleText(s string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '\n':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case ctrl.Unsafe(r) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
