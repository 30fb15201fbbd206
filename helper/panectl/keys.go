package panectl

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/taw-tmux/taw/helper/coded"
)

// namedKeys are herdr's key names and the tmux keys they send.
var namedKeys = map[string]string{
	"enter": "Enter", "return": "Enter", "tab": "Tab", "esc": "Escape", "escape": "Escape",
	"backspace": "BSpace", "space": "Space", "left": "Left", "right": "Right", "up": "Up",
	"down": "Down", "home": "Home", "end": "End", "pageup": "PPage", "pagedown": "NPage",
	"delete": "DC", "insert": "IC",
	"minus": "-", "plus": "+", "backtick": "`", "equal": "=", "comma": ",", "period": ".",
	"slash": "/", "backslash": "\\", "semicolon": ";", "quote": "'", "leftbracket": "[",
	"rightbracket": "]",
}

// TmuxKeys turns herdr's key combos (a, enter, esc, ctrl+h, control+j, alt+x, shift+tab, f1,
// minus, and the legacy C-c) into tmux key names. Every combo is checked before any is sent:
// one that does not read refuses the whole call.
func TmuxKeys(combos []string) ([]string, error) {
	if len(combos) == 0 {
		return nil, coded.Errorf(coded.InvalidArgument, "no keys: name at least one (enter, esc, ctrl+c, a, ...)")
	}
	if len(combos) > 512 {
		return nil, coded.Errorf(coded.InvalidArgument, "%d keys; at most 512 a call", len(combos))
	}
	out := make([]string, 0, len(combos))
	for _, c := range combos {
		k, ok := tmuxKey(c)
		if !ok {
			return nil, coded.Errorf(coded.InvalidArgument, "invalid key %q (expected a key such as a, enter, esc, tab, up, f1, ctrl+c, alt+x or shift+tab); nothing sent", c)
		}
		out = append(out, k)
	}
	return out, nil
}

func tmuxKey(combo string) (string, bool) {
	if r, n := utf8.DecodeRuneInString(combo); n == len(combo) && n > 0 && r != utf8.RuneError {
		return combo, unicode.IsPrint(r) // one printable character is itself
	}
	lower := strings.ToLower(combo)
	// Legacy C-c and M-x.
	if len(lower) == 3 && lower[1] == '-' && (lower[0] == 'c' || lower[0] == 'm') {
		lower = map[byte]string{'c': "ctrl+", 'm': "alt+"}[lower[0]] + lower[2:]
	}
	mods := ""
	for {
		head, rest, ok := strings.Cut(lower, "+")
		if !ok || rest == "" {
			break
		}
		switch head {
		case "ctrl", "control":
			mods += "C-"
		case "alt", "meta", "option":
			mods += "M-"
		case "shift":
			mods += "S-"
		default:
			return "", false
		}
		lower = rest
	}
	if strings.Contains(mods, "S-") && lower == "tab" {
		return strings.Replace(mods, "S-", "", 1) + "BTab", true
	}
	base, ok := namedKeys[lower]
	switch {
	case ok:
	case len(lower) >= 2 && lower[0] == 'f' && isNumber(lower[1:]) && len(lower) <= 3 && lower != "f0":
		base = "F" + lower[1:]
	case utf8.RuneCountInString(lower) == 1 && mods != "":
		r, _ := utf8.DecodeRuneInString(lower)
		if !unicode.IsPrint(r) || r == ' ' {
			return "", false
		}
		base = lower
	default:
		return "", false
	}
	return mods + base, true
}

func isNumber(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
