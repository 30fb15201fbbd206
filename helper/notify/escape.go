package notify

import (
	"strings"

	"github.com/taw-tmux/taw/helper/ctrl"
)

// Terminal escapes for a desktop notification. Each is written to a client's terminal; a tmux
// between the client and the terminal passes it on only wrapped (Passthrough).

// clean makes text safe inside an escape: no control characters (an ESC, BEL or ST would end
// the sequence early), newlines as spaces.
func clean(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case ctrl.Unsafe(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

const st = "\x1b\\"

// OSC9 is the common notification escape: one text. ConEmu, Windows Terminal and others read
// an OSC 9 text that starts with a number and ";" as a command of their own (9;4 sets a progress
// bar, 9;7 runs a program), so such a start has its ";" made ",": an agent named "4;3;50" is
// a notification, not a progress bar.
func OSC9(title, body string) string {
	return "\x1b]9;" + osc9Text(clean(title+": "+body)) + st
}

func osc9Text(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i < len(s) && s[i] == ';' {
		return s[:i] + "," + s[i+1:]
	}
	return s
}

// markup escapes what notify-send's body reads as markup (notification servers render a subset
// of HTML there: <b>, <a href>, <img src>), so a message shows as written.
func markup(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// OSC777 is the notify extension of OSC 777: title and body split by ";", so neither may hold
// one.
func OSC777(title, body string) string {
	r := strings.NewReplacer(";", ",")
	return "\x1b]777;notify;" + r.Replace(clean(title)) + ";" + r.Replace(clean(body)) + st
}

// OSC99 is the desktop notification protocol of OSC 99 (kitty's): the title in a first chunk
// that is not done (d=0), then the body, under one id.
func OSC99(title, body string) string {
	return "\x1b]99;i=taw:d=0;" + clean(title) + st + "\x1b]99;i=taw:p=body;" + clean(body) + st
}

// Passthrough wraps a sequence for tmux's DCS passthrough: every ESC inside doubled.
func Passthrough(seq string) string {
	return "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + st
}

// Protocol picks the escape for a terminal type when the config says auto.
func Protocol(configured, termname string) string {
	if configured != "" && configured != "auto" {
		return configured
	}
	switch {
	case termname == "xterm-kitty":
		return "osc99"
	case strings.HasPrefix(termname, "foot"), strings.HasPrefix(termname, "rxvt"):
		return "osc777"
	}
	return "osc9"
}

// Wrap says whether a client's terminal is itself a tmux (or screen) that needs the escape
// wrapped, when the config says auto.
func Wrap(configured, termname string) bool {
	switch configured {
	case "on":
		return true
	case "off":
		return false
	}
	return strings.HasPrefix(termname, "tmux") || strings.HasPrefix(termname, "screen")
}

// Escape is the whole sequence to write for a client's terminal.
func Escape(n Notification, protocol, passthrough, termname string) string {
	var seq string
	switch Protocol(protocol, termname) {
	case "osc777":
		seq = OSC777(n.Title(), n.Body())
	case "osc99":
		seq = OSC99(n.Title(), n.Body())
	default:
		seq = OSC9(n.Title(), n.Body())
	}
	if Wrap(passthrough, termname) {
		return Passthrough(seq)
	}
	return seq
}
