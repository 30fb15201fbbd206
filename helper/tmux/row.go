package tmux

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
)

// The rows taw asks tmux to print (list-panes -F, display-message -p, ...) are read through this
// one vocabulary, because releases print them differently. tmux 3.4 and 3.5a pass everything a
// command prints through vis(3) (octal, C-style, backslashes left single): a control byte, such
// as the field separator, prints as "\037" or "\t", an invalid UTF-8 byte as "\ooo", and a "$"
// before a name as "\$". 3.2a, 3.3a and 3.7c print the bytes as they are. A value that holds a
// backslash is printed through q: (a backslash before each of a few printable characters, the
// backslash among them), so that no backslash of a value can pass for one of vis's; the two sets
// of escapes do not meet, and DecodeRow undoes both on every release.

// FieldSep separates the fields of a row.
const FieldSep = "\x1f"

// Text is the format that prints variable name so DecodeRow reads it back byte for byte: for a
// value that may hold a backslash (a name, a title, a path, a command, an option's value). q: is
// used only when the value holds one, since on 3.2a and 3.3a every q: leaks its value in the
// server (fixed in 3.4).
func Text(name string) string {
	return "#{?#{m:*\\\\*,#{" + name + "}},#{q:" + name + "},#{" + name + "}}"
}

// Plain is the format that prints variable name as it is: for a number or an id, which holds no
// backslash.
func Plain(name string) string { return "#{" + name + "}" }

// WindowTime is the format of a window's time variable (window_activity), "0" where no window is
// known: display-message of a pane that is not there fills its format without a window, and tmux
// 3.2a crashes filling a window's time then.
func WindowTime(name string) string { return "#{?window_id,#{" + name + "},0}" }

// Row joins formats (or literal text without a backslash) into the format of one row.
func Row(formats ...string) string { return strings.Join(formats, FieldSep) }

// DecodeRow reads one printed row back into its fields.
func DecodeRow(row string) []string { return strings.Split(Decode(row), FieldSep) }

// Decode undoes what tmux did to printed text: vis(3)'s escapes on 3.4 and 3.5a, and q:'s
// everywhere. A backslash and three octal digits is that byte; a backslash and one of vis's
// C-style letters is that control byte; "\\$" before a name is vis's "\$" after q:'s backslash,
// a "$"; a backslash and any other character is that character.
func Decode(s string) string {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		next := s[i+1]
		switch {
		case i+3 < len(s) && isOctal(next) && isOctal(s[i+2]) && isOctal(s[i+3]):
			b.WriteByte((next-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
		case next == '\\' && i+3 < len(s) && s[i+2] == '$' && startsName(s[i+3]):
			b.WriteByte('$')
			i += 2
		case cStyle[next] != 0:
			b.WriteByte(cStyle[next] - 1)
			i++
		default:
			b.WriteByte(next)
			i++
		}
	}
	return b.String()
}

// startsName says whether vis escapes a "$" before c.
func startsName(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '{'
}

// cStyle maps vis's C-style letters to their byte, plus one (zero means none).
var cStyle = [256]byte{'n': '\n' + 1, 'r': '\r' + 1, 'b': '\b' + 1, 'a': '\a' + 1, 'v': '\v' + 1,
	't': '\t' + 1, 'f': '\f' + 1, 's': ' ' + 1, '0': 0 + 1}

// GlobalOptions reads the global values of the named options (show-options -gqv; "" for one
// unset), in one call:
// for a value whose own scope matters (a window option a window may override), which a format
// cannot read. show-options prints a value as it is, escaped by vis(3) on the releases that
// escape what they print; a mark printed after each value tells which, and then vis's escapes
// are undone. (vis leaves a value's backslashes single, so a value holding a backslash before
// three octal digits or a C-style letter reads back wrong there; window formats hold none.)
func (c *Client) GlobalOptions(ctx context.Context, names ...string) ([]string, error) {
	// The mark holds a nonce, so no value can pass for it.
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	nonce := hex.EncodeToString(b)
	mark := "\x1etaw-end-" + nonce
	var read []Cmd
	for _, n := range names {
		read = append(read, Cmd{"show-options", "-gqv", n}, Cmd{"display-message", "-p", mark})
	}
	out, err := c.Run(ctx, read...)
	if err != nil {
		return nil, err
	}
	values, ok := splitAtMarks(out, mark+"\n", len(names))
	unvis := false
	if !ok {
		values, ok = splitAtMarks(out, `\036taw-end-`+nonce+"\n", len(names))
		unvis = true
	}
	if !ok {
		return nil, fmt.Errorf("read options %s: tmux printed %q", strings.Join(names, ", "), out)
	}
	for i, v := range values {
		if unvis {
			values[i] = Unvis(v)
		}
	}
	return values, nil
}

// splitAtMarks reads n values, each ended by a mark line: an unset option prints nothing before
// its mark, a set one its value and a newline.
func splitAtMarks(out, mark string, n int) ([]string, bool) {
	values := make([]string, 0, n)
	for len(values) < n {
		at := -1
		for from := 0; from <= len(out); {
			k := strings.Index(out[from:], mark)
			if k < 0 {
				break
			}
			if k += from; k == 0 || out[k-1] == '\n' {
				at = k
				break
			}
			from = k + 1
		}
		if at < 0 {
			return nil, false
		}
		values = append(values, strings.TrimSuffix(out[:at], "\n"))
		out = out[at+len(mark):]
	}
	return values, out == ""
}

// Unvis undoes only vis(3)'s escapes, for text printed without q:.
func Unvis(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+3 < len(s) && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		if c == '\\' && i+1 < len(s) && (cStyle[s[i+1]] != 0 || s[i+1] == '$' && i+2 < len(s) && startsName(s[i+2])) {
			if s[i+1] == '$' {
				b.WriteByte('$')
			} else {
				b.WriteByte(cStyle[s[i+1]] - 1)
			}
			i++
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
