package popup

import "unicode/utf8"

// DecodeKeys turns what the terminal sent into keys. A lone ESC is the escape key; the usual
// xterm sequences are arrows and page keys; unknown sequences are dropped whole.
func DecodeKeys(b []byte) []Key {
	var keys []Key
	for len(b) > 0 {
		c := b[0]
		switch {
		case c == 0x1b:
			if len(b) == 1 {
				return append(keys, Key{Name: "esc"})
			}
			if b[1] != '[' && b[1] != 'O' {
				// ESC followed by a key: alt+key, read as escape.
				keys = append(keys, Key{Name: "esc"})
				b = b[1:]
				continue
			}
			n := 2
			for n < len(b) && (b[n] < 0x40 || b[n] > 0x7e) {
				n++
			}
			if n >= len(b) {
				return keys
			}
			seq := string(b[1 : n+1])
			b = b[n+1:]
			if name, ok := sequences[seq]; ok {
				keys = append(keys, Key{Name: name})
			}
		case c == '\r' || c == '\n':
			keys = append(keys, Key{Name: "enter"})
			b = b[1:]
		case c == 0x7f || c == 0x08:
			keys = append(keys, Key{Name: "backspace"})
			b = b[1:]
		case c == '\t':
			keys = append(keys, Key{Name: "tab"})
			b = b[1:]
		case c < ' ':
			if name, ok := controls[c]; ok {
				keys = append(keys, Key{Name: name})
			}
			b = b[1:]
		default:
			r, size := utf8.DecodeRune(b)
			keys = append(keys, Key{Rune: r})
			b = b[size:]
		}
	}
	return keys
}

var sequences = map[string]string{
	"[A": "up", "[B": "down", "OA": "up", "OB": "down",
	"[5~": "pgup", "[6~": "pgdown", "[H": "home", "[F": "end", "OH": "home", "OF": "end",
	"[1~": "home", "[4~": "end",
}

var controls = map[byte]string{
	0x03: "ctrl-c", 0x0e: "ctrl-n", 0x10: "ctrl-p", 0x15: "ctrl-u", 0x04: "ctrl-c",
}
