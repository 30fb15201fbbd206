package integration

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tailscale/hujson"
)

// JSON with comments is read by hujson; each value's byte span is kept, so that an edit can
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

// parseJSONC reads b, JSON with comments and trailing commas, with the hujson library, and
// returns its value with every byte span an edit needs.
func parseJSONC(b []byte) (*jsonNode, error) {
	skip := 0
	if bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
		skip = 3
	}
	v, err := hujson.Parse(b[skip:])
	if err != nil {
		return nil, &ParseError{Msg: strings.TrimPrefix(err.Error(), "hujson: ")}
	}
	n, err := nodeOf(b, &v, skip, 0)
	if err != nil {
		return nil, err
	}
	return n, nil
}

// nodeOf turns one parsed value into a jsonNode whose offsets count from the start of b. A key
// written twice in one object is refused: agents read the last one, and an edit of the first
// would be lost on the person.
func nodeOf(b []byte, v *hujson.Value, skip, depth int) (*jsonNode, error) {
	if depth > 200 {
		return nil, &ParseError{Msg: fmt.Sprintf("line %d: nested too deeply", lineAt(b, skip+v.StartOffset))}
	}
	n := &jsonNode{start: skip + v.StartOffset, end: skip + v.EndOffset, depth: depth}
	switch t := v.Value.(type) {
	case *hujson.Object:
		n.kind, n.open, n.close = '{', n.start, n.end-1
		seen := map[string]int{}
		for i := range t.Members {
			m := &t.Members[i]
			var key string
			if err := json.Unmarshal(m.Name.Value.(hujson.Literal), &key); err != nil {
				return nil, &ParseError{Msg: fmt.Sprintf("line %d: invalid key", lineAt(b, skip+m.Name.StartOffset))}
			}
			if first, dup := seen[key]; dup {
				return nil, &ParseError{Msg: fmt.Sprintf("line %d: key %q is written twice (first on line %d); remove one, so that an edit lands in the one the agent reads", lineAt(b, skip+m.Name.StartOffset), key, first)}
			}
			seen[key] = lineAt(b, skip+m.Name.StartOffset)
			val, err := nodeOf(b, &m.Value, skip, depth+1)
			if err != nil {
				return nil, err
			}
			n.members = append(n.members, jsonMember{key: key, start: skip + m.Name.StartOffset, end: val.end, val: val})
		}
	case *hujson.Array:
		n.kind, n.open, n.close = '[', n.start, n.end-1
		for i := range t.Elements {
			e, err := nodeOf(b, &t.Elements[i], skip, depth+1)
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, e)
		}
	case hujson.Literal:
		n.kind = 'l'
		if t.Kind() == '"' {
			n.kind = '"'
		}
	}
	return n, nil
}

func lineAt(b []byte, off int) int { return 1 + bytes.Count(b[:min(off, len(b))], []byte("\n")) }

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
