package tmux

import (
	"context"
	"strings"
)

// KeyBindings are the list-keys lines that bind key in table ("" when the key is unbound). tmux
// 3.7c prints nothing when list-keys finds exactly one binding (it shows it as a status message
// instead), which list-keys -T table key always does for a bound key, and a table of one binding
// does too; so every binding is listed, on every release, and the lines are picked by table and
// key.
func (c *Client) KeyBindings(ctx context.Context, table, key string) (string, error) {
	out, err := c.Output(ctx, "list-keys")
	if err != nil {
		return "", err
	}
	var lines []string
	for _, line := range strings.Split(out, "\n") {
		if k, ok := boundKey(line, table); ok && sameKey(k, key) {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n"), nil
}

// boundKey is the key of a list-keys line of table: "bind-key [-r] -T table key command…", the
// key as tmux escapes it (a backslash before a special character, or quotes around it).
func boundKey(line, table string) (string, bool) {
	f := strings.Fields(line)
	for i := 0; i+2 < len(f); i++ {
		if f[i] == "-T" && f[i+1] == table {
			k := f[i+2]
			if len(k) >= 2 && (k[0] == '"' || k[0] == '\'') && k[len(k)-1] == k[0] {
				k = k[1 : len(k)-1]
			}
			if len(k) == 2 && k[0] == '\\' {
				k = k[1:]
			}
			return k, true
		}
	}
	return "", false
}

// sameKey says whether two names are one key as tmux reads them: its modifiers (C-, M-, S-, in
// any case and order, and ^x for C-x) and the key.
func sameKey(a, b string) bool { return a == b || canonicalKey(a) == canonicalKey(b) }

func canonicalKey(k string) string {
	var ctrl, meta, shift bool
	for len(k) > 2 && k[1] == '-' {
		switch k[0] {
		case 'C', 'c':
			ctrl = true
		case 'M', 'm':
			meta = true
		case 'S', 's':
			shift = true
		default:
			return k
		}
		k = k[2:]
	}
	if len(k) == 2 && k[0] == '^' {
		ctrl, k = true, strings.ToLower(k[1:])
	}
	var mods string
	if ctrl {
		mods += "C-"
	}
	if meta {
		mods += "M-"
	}
	if shift {
		mods += "S-"
	}
	return mods + k
}
