package scrollback

import (
	"bytes"
	"strconv"
)

// Modes follows the private terminal modes a program sets (CSI ? Pm h / l), across chunk
// boundaries, so that a client attaching later can be put in the same modes before the history
// is replayed.
type Modes struct {
	alt        int // 1049, 1047 or 47 when the alternate screen is on, else 0
	cursorHide bool
	appCursor  bool
	mouse      int // 1000, 1002 or 1003, else 0
	sgrMouse   bool
	paste      bool

	state  int // 0 ground, 1 after ESC, 2 after ESC [, 3 inside ESC [ ? params
	params []byte
}

// Feed advances the tracker over a chunk of output.
func (m *Modes) Feed(p []byte) {
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch m.state {
		case 0:
			// Most output holds no escape at all: skip to the next one.
			j := bytes.IndexByte(p[i:], 0x1b)
			if j < 0 {
				return
			}
			i += j
			m.state = 1
		case 1:
			m.state = 0
			if c == '[' {
				m.state = 2
			} else if c == 0x1b {
				m.state = 1
			}
		case 2:
			m.state = 0
			if c == '?' {
				m.state, m.params = 3, m.params[:0]
			} else if c == 0x1b {
				m.state = 1
			}
		case 3:
			switch {
			case c >= '0' && c <= '9' || c == ';':
				if len(m.params) < 64 {
					m.params = append(m.params, c)
				}
			case c == 'h' || c == 'l':
				m.apply(c == 'h')
				m.state = 0
			case c == 0x1b:
				m.state = 1
			default:
				m.state = 0
			}
		}
	}
}

func (m *Modes) apply(set bool) {
	start := 0
	for i := 0; i <= len(m.params); i++ {
		if i < len(m.params) && m.params[i] != ';' {
			continue
		}
		n, err := strconv.Atoi(string(m.params[start:i]))
		start = i + 1
		if err != nil {
			continue
		}
		switch n {
		case 1049, 1047, 47:
			if set {
				m.alt = n
			} else {
				m.alt = 0
			}
		case 25:
			m.cursorHide = !set
		case 1:
			m.appCursor = set
		case 1000, 1002, 1003:
			if set {
				m.mouse = n
			} else if m.mouse == n {
				m.mouse = 0
			}
		case 1006:
			m.sgrMouse = set
		case 2004:
			m.paste = set
		}
	}
}

// Preamble is the escape sequence that re-creates the non-default modes, in a fixed order:
// alternate screen first, then hidden cursor, application cursor keys, mouse, SGR mouse and
// bracketed paste. All defaults give nothing.
func (m *Modes) Preamble() []byte {
	var out []byte
	set := func(n int) { out = append(out, "\x1b[?"+strconv.Itoa(n)+"h"...) }
	if m.alt != 0 {
		set(m.alt)
	}
	if m.cursorHide {
		out = append(out, "\x1b[?25l"...)
	}
	if m.appCursor {
		set(1)
	}
	if m.mouse != 0 {
		set(m.mouse)
	}
	if m.sgrMouse {
		set(1006)
	}
	if m.paste {
		set(2004)
	}
	if out == nil {
		out = []byte{}
	}
	return out
}
