package integration

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// A small JSON-with-comments reader that keeps every value's byte span, so that an edit can
// insert or cut text at exact places and leave comments, spacing and key order alone.

type jsonNode struct {
	kind        byte // '{', '[', '"' or 'l' (number, true, false, null)
	start, end  int  // the value's bytes: b[start:end]
	depth       int  // nesting depth of the value (the root is 0)
	members     []jsonMember
	elems       []*jsonNode
	open, close int // for objects and arrays: the offsets of the brackets
}

type jsonMember struct {
	key        string
	start, end int // from the key's opening quote to the end of the value
	val        *jsonNode
}

// ParseError is a config taw cannot read; the file is left as it is.
type ParseError struct {
	File string
	Msg  string
}

func (e *ParseError) Error() string {
	if e.File == "" {
		return e.Msg
	}
	return e.File + ": " + e.Msg
}

type jsonParser struct {
	b []byte
	i int
}

func parseJSONC(b []byte) (*jsonNode, error) {
	p := &jsonParser{b: b}
	if bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
		p.i = 3
	}
	if err := p.ws(); err != nil {
		return nil, err
	}
	if p.i >= len(b) {
		return nil, p.errorf("no JSON value")
	}
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if err := p.ws(); err != nil {
		return nil, err
	}
	if p.i < len(b) {
		return nil, p.errorf("unexpected %q after the JSON value", b[p.i])
	}
	return n, nil
}

func (p *jsonParser) errorf(format string, args ...any) error {
	line := 1 + bytes.Count(p.b[:min(p.i, len(p.b))], []byte("\n"))
	return &ParseError{Msg: fmt.Sprintf("line %d: %s", line, fmt.Sprintf(format, args...))}
}

// ws skips whitespace and // and /* */ comments.
func (p *jsonParser) ws() error {
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.i++
		case c == '/' && p.i+1 < len(p.b) && p.b[p.i+1] == '/':
			for p.i < len(p.b) && p.b[p.i] != '\n' {
				p.i++
			}
		case c == '/' && p.i+1 < len(p.b) && p.b[p.i+1] == '*':
			end := bytes.Index(p.b[p.i+2:], []byte("*/"))
			if end < 0 {
				return p.errorf("unterminated /* comment")
			}
			p.i += end + 4
		default:
			return nil
		}
	}
	return nil
}

func (p *jsonParser) value(depth int) (*jsonNode, error) {
	if depth > 200 {
		return nil, p.errorf("nested too deeply")
	}
	n := &jsonNode{start: p.i, depth: depth}
	switch c := p.b[p.i]; c {
	case '{':
		n.kind, n.open = '{', p.i
		p.i++
		for {
			if err := p.ws(); err != nil {
				return nil, err
			}
			if p.i >= len(p.b) {
				return nil, p.errorf("unterminated object")
			}
			if p.b[p.i] == '}' {
				break
			}
			if p.b[p.i] != '"' {
				return nil, p.errorf("expected a key in quotes, found %q", p.b[p.i])
			}
			ks := p.i
			key, err := p.str()
			if err != nil {
				return nil, err
			}
			if err := p.ws(); err != nil {
				return nil, err
			}
			if p.i >= len(p.b) || p.b[p.i] != ':' {
				return nil, p.errorf("expected : after key %q", key)
			}
			p.i++
			if err := p.ws(); err != nil {
				return nil, err
			}
			if p.i >= len(p.b) {
				return nil, p.errorf("missing value for key %q", key)
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.members = append(n.members, jsonMember{key: key, start: ks, end: v.end, val: v})
			if err := p.ws(); err != nil {
				return nil, err
			}
			if p.i < len(p.b) && p.b[p.i] == ',' {
				p.i++
				continue
			}
			if err := p.ws(); err != nil {
				return nil, err
			}
			if p.i >= len(p.b) || p.b[p.i] != '}' {
				return nil, p.errorf("expected , or } in object")
			}
			break
		}
		n.close = p.i
		p.i++
	case '[':
		n.kind, n.open = '[', p.i
		p.i++
		for {
			if err := p.ws(); err != nil {
				return nil, err
			}
			if p.i >= len(p.b) {
				return nil, p.errorf("unterminated array")
			}
			if p.b[p.i] == ']' {
				break
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, v)
			if err := p.ws(); err != nil {
				return nil, err
			}
			if p.i < len(p.b) && p.b[p.i] == ',' {
				p.i++
				continue
			}
			if p.i >= len(p.b) || p.b[p.i] != ']' {
				return nil, p.errorf("expected , or ] in array")
			}
			break
		}
		n.close = p.i
		p.i++
	case '"':
		n.kind = '"'
		if _, err := p.str(); err != nil {
			return nil, err
		}
	default:
		n.kind = 'l'
		for p.i < len(p.b) && strings.IndexByte("+-.0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", p.b[p.i]) >= 0 {
			p.i++
		}
		lit := string(p.b[n.start:p.i])
		if lit == "" {
			return nil, p.errorf("unexpected %q where a value should be", p.b[p.i])
		}
		var v any
		if json.Unmarshal([]byte(lit), &v) != nil {
			return nil, p.errorf("invalid value %q", lit)
		}
	}
	n.end = p.i
	return n, nil
}

// str reads a JSON string at p.i and returns its value.
func (p *jsonParser) str() (string, error) {
	s := p.i
	p.i++
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case '\\':
			p.i += 2
			continue
		case '\n':
			return "", p.errorf("newline in a string")
		case '"':
			p.i++
			var v string
			if err := json.Unmarshal(p.b[s:p.i], &v); err != nil {
				return "", p.errorf("invalid string")
			}
			return v, nil
		}
		p.i++
	}
	return "", p.errorf("unterminated string")
}

func (n *jsonNode) member(key string) (int, *jsonNode) {
	for i, m := range n.members {
		if m.key == key {
			return i, m.val
		}
	}
	return -1, nil
}

// stringValue is the value of a string node, "" for any other.
func (n *jsonNode) stringValue(b []byte) string {
	if n == nil || n.kind != '"' {
		return ""
	}
	var s string
	_ = json.Unmarshal(b[n.start:n.end], &s)
	return s
}

// indentUnit guesses the document's indent from its first indented key.
func indentUnit(b []byte) string {
	for _, line := range bytes.Split(b, []byte("\n")) {
		t := bytes.TrimLeft(line, " \t")
		if len(t) < len(line) && len(t) > 0 && t[0] == '"' {
			return string(line[:len(line)-len(t)])
		}
	}
	return "  "
}

func indent(unit string, depth int) string { return strings.Repeat(unit, depth) }

// renderJSON writes v as indented JSON that starts at depth: every line after the first is
// indented for that depth.
func renderJSON(v any, unit string, depth int) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(indent(unit, depth), unit)
	_ = enc.Encode(v)
	return strings.TrimSuffix(buf.String(), "\n")
}

func splice(b []byte, from, to int, text string) []byte {
	out := make([]byte, 0, len(b)-(to-from)+len(text))
	out = append(out, b[:from]...)
	out = append(out, text...)
	return append(out, b[to:]...)
}

// insertMember adds "key": value as the object's last member.
func insertMember(b []byte, obj *jsonNode, key string, value any) []byte {
	unit := indentUnit(b)
	text := renderJSON(key, unit, 0) + ": " + renderJSON(value, unit, obj.depth+1)
	if len(obj.members) > 0 {
		return splice(b, obj.members[len(obj.members)-1].end, obj.members[len(obj.members)-1].end, ",\n"+indent(unit, obj.depth+1)+text)
	}
	return splice(b, obj.open+1, obj.close, "\n"+indent(unit, obj.depth+1)+text+"\n"+indent(unit, obj.depth))
}

// appendElem adds value as the array's last element.
func appendElem(b []byte, arr *jsonNode, value any) []byte {
	unit := indentUnit(b)
	text := renderJSON(value, unit, arr.depth+1)
	if len(arr.elems) > 0 {
		last := arr.elems[len(arr.elems)-1]
		return splice(b, last.end, last.end, ",\n"+indent(unit, arr.depth+1)+text)
	}
	return splice(b, arr.open+1, arr.close, "\n"+indent(unit, arr.depth+1)+text+"\n"+indent(unit, arr.depth))
}

// cutItem removes item i of a container whose items span starts[i]..ends[i]: the text an
// insertMember or appendElem added is exactly what goes.
func cutItem(b []byte, c *jsonNode, starts, ends []int, i int) []byte {
	switch {
	case i > 0:
		return splice(b, ends[i-1], ends[i], "")
	case len(starts) > 1:
		return splice(b, starts[0], starts[1], "")
	default:
		return splice(b, c.open+1, c.close, "")
	}
}

func removeMember(b []byte, obj *jsonNode, i int) []byte {
	starts, ends := make([]int, len(obj.members)), make([]int, len(obj.members))
	for j, m := range obj.members {
		starts[j], ends[j] = m.start, m.end
	}
	return cutItem(b, obj, starts, ends, i)
}

func removeElem(b []byte, arr *jsonNode, i int) []byte {
	starts, ends := make([]int, len(arr.elems)), make([]int, len(arr.elems))
	for j, e := range arr.elems {
		starts[j], ends[j] = e.start, e.end
	}
	return cutItem(b, arr, starts, ends, i)
}
