package wire

import (
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A small JSON reader of its own, because encoding/json is laxer than a Conmux v1 peer: it matches
// keys case-insensitively, keeps the last of two equal keys, and turns invalid UTF-8 and lone
// surrogates into U+FFFD. This one keeps key order and every key, and rejects all of those.

type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

func (k jsonKind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

type jsonValue struct {
	kind jsonKind
	b    bool
	s    string // a number's literal text, or a string's value when it held escapes
	// raw is a string without escapes as it lies in the frame body, read before the body is
	// reused: base64 data is decoded straight from it, with no copy in between.
	raw   []byte
	isRaw bool
	arr   []*jsonValue
	obj   []jsonMember
}

// text is a string's value.
func (v *jsonValue) text() string {
	if v.isRaw {
		return string(v.raw)
	}
	return v.s
}

type jsonMember struct {
	key string
	val *jsonValue
}

// maxDepth bounds nesting, as a Conmux v1 peer does, so hostile input cannot exhaust the stack.
const maxDepth = 128

// DecodeError is a frame body that is not valid JSON or does not fit the expected type.
type DecodeError struct{ Msg string }

func (e *DecodeError) Error() string { return "bad frame: " + e.Msg }

func decodeErrorf(format string, args ...any) error {
	return &DecodeError{Msg: fmt.Sprintf(format, args...)}
}

type jsonParser struct {
	data  []byte
	pos   int
	depth int
}

func parseJSON(data []byte) (*jsonValue, error) {
	p := &jsonParser{data: data}
	p.skipSpace()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return nil, p.errorf("trailing characters")
	}
	return v, nil
}

func (p *jsonParser) errorf(format string, args ...any) error {
	return decodeErrorf("%s at byte %d", fmt.Sprintf(format, args...), p.pos)
}

func (p *jsonParser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonParser) value() (*jsonValue, error) {
	if p.pos >= len(p.data) {
		return nil, p.errorf("EOF while parsing a value")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		raw, unescaped, err := p.scanStr()
		if err != nil {
			return nil, err
		}
		if unescaped != nil {
			return &jsonValue{kind: jsonString, s: string(unescaped)}, nil
		}
		return &jsonValue{kind: jsonString, raw: raw, isRaw: true}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return p.literal("true", &jsonValue{kind: jsonBool, b: true})
	case c == 'f':
		return p.literal("false", &jsonValue{kind: jsonBool})
	case c == 'n':
		return p.literal("null", &jsonValue{kind: jsonNull})
	}
	return nil, p.errorf("expected value")
}

func (p *jsonParser) literal(word string, v *jsonValue) (*jsonValue, error) {
	if len(p.data)-p.pos < len(word) || string(p.data[p.pos:p.pos+len(word)]) != word {
		return nil, p.errorf("expected value")
	}
	p.pos += len(word)
	return v, nil
}

func (p *jsonParser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.errorf("recursion limit exceeded")
	}
	return nil
}

func (p *jsonParser) object() (*jsonValue, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.pos++
	v := &jsonValue{kind: jsonObject}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return v, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.errorf("key must be a string")
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.errorf("expected `:`")
		}
		p.pos++
		p.skipSpace()
		val, err := p.value()
		if err != nil {
			return nil, err
		}
		v.obj = append(v.obj, jsonMember{key, val})
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.errorf("EOF while parsing an object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return v, nil
		default:
			return nil, p.errorf("expected `,` or `}`")
		}
	}
}

func (p *jsonParser) array() (*jsonValue, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.pos++
	v := &jsonValue{kind: jsonArray, arr: []*jsonValue{}}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return v, nil
	}
	for {
		p.skipSpace()
		el, err := p.value()
		if err != nil {
			return nil, err
		}
		v.arr = append(v.arr, el)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.errorf("EOF while parsing a list")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return v, nil
		default:
			return nil, p.errorf("expected `,` or `]`")
		}
	}
}

func (p *jsonParser) number() (*jsonValue, error) {
	start := p.pos
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.data[p.pos] == '-' {
		p.pos++
	}
	if p.pos < len(p.data) && p.data[p.pos] == '0' {
		p.pos++
		if p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			return nil, p.errorf("invalid number")
		}
	} else if digits() == 0 {
		return nil, p.errorf("invalid number")
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, p.errorf("invalid number")
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.errorf("invalid number")
		}
	}
	return &jsonValue{kind: jsonNumber, s: string(p.data[start:p.pos])}, nil
}

func (p *jsonParser) str() (string, error) {
	raw, unescaped, err := p.scanStr()
	if unescaped != nil {
		return string(unescaped), err
	}
	return string(raw), err
}

// scanStr reads a string: without escapes, raw is its bytes in the body (no copy) and unescaped
// is nil; with escapes, unescaped is its value.
func (p *jsonParser) scanStr() (raw, unescaped []byte, err error) {
	p.pos++ // the opening quote
	var out []byte
	start := p.pos
	for {
		if p.pos >= len(p.data) {
			return nil, nil, p.errorf("EOF while parsing a string")
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			if out == nil {
				return p.data[start : p.pos-1], nil, nil
			}
			return nil, append(out, p.data[start:p.pos-1]...), nil
		case c >= 0x20 && c < utf8.RuneSelf && c != '\\':
			// Plain ASCII, the bulk of base64 data: run through it without the cases below.
			p.pos++
			for p.pos < len(p.data) {
				c = p.data[p.pos]
				if c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
					break
				}
				p.pos++
			}
		case c < 0x20:
			return nil, nil, p.errorf("control character in string")
		case c == '\\':
			out = append(out, p.data[start:p.pos]...)
			r, err := p.escape()
			if err != nil {
				return nil, nil, err
			}
			out = utf8.AppendRune(out, r)
			start = p.pos
		case c < utf8.RuneSelf:
			p.pos++
		default:
			r, n := utf8.DecodeRune(p.data[p.pos:])
			if r == utf8.RuneError && n <= 1 {
				return nil, nil, p.errorf("invalid unicode code point")
			}
			p.pos += n
		}
	}
}

// escape reads one backslash escape and returns the character it stands for.
func (p *jsonParser) escape() (rune, error) {
	p.pos++
	if p.pos >= len(p.data) {
		return 0, p.errorf("EOF while parsing a string")
	}
	c := p.data[p.pos]
	p.pos++
	switch c {
	case '"', '\\', '/':
		return rune(c), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
		r1, err := p.hex4()
		if err != nil {
			return 0, err
		}
		switch {
		case utf16.IsSurrogate(r1) && r1 < 0xdc00:
			if len(p.data)-p.pos < 2 || p.data[p.pos] != '\\' || p.data[p.pos+1] != 'u' {
				return 0, p.errorf("lone leading surrogate in hex escape")
			}
			p.pos += 2
			r2, err := p.hex4()
			if err != nil {
				return 0, err
			}
			r := utf16.DecodeRune(r1, r2)
			if r == utf8.RuneError {
				return 0, p.errorf("lone leading surrogate in hex escape")
			}
			return r, nil
		case utf16.IsSurrogate(r1):
			return 0, p.errorf("lone trailing surrogate in hex escape")
		}
		return r1, nil
	}
	return 0, p.errorf("invalid escape")
}

func (p *jsonParser) hex4() (rune, error) {
	if len(p.data)-p.pos < 4 {
		return 0, p.errorf("EOF while parsing a string")
	}
	n, err := strconv.ParseUint(string(p.data[p.pos:p.pos+4]), 16, 32)
	if err != nil {
		return 0, p.errorf("invalid escape")
	}
	p.pos += 4
	return rune(n), nil
}
