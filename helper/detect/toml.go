package detect

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2/unstable"
)

// Rule files are TOML, read with go-toml's parser. Its syntax tree is turned into a small tree of
// taw's own in which every value keeps its line, so the loader can name the line of an unknown
// key or a bad value. Rule files use comments, bare and quoted keys, [table] and [[array of
// tables]] headers, strings of every kind, integers, booleans, arrays and inline tables; floats,
// dates, dotted keys and nested table names are refused with a message saying so.

type tomlKind int

const (
	kindString tomlKind = iota
	kindInt
	kindBool
	kindArray
	kindTable
)

func (k tomlKind) String() string {
	return [...]string{"a string", "an integer", "a boolean", "an array", "a table"}[k]
}

type tomlValue struct {
	kind  tomlKind
	line  int
	str   string
	num   int64
	b     bool
	items []*tomlValue
	table *tomlTable
	// tableArray marks an array made by [[name]] headers, which a later [[name]] extends.
	tableArray bool
}

type tomlTable struct {
	line  int
	keys  []string // in file order
	vals  map[string]*tomlValue
	lines map[string]int // the line each key is on
}

func newTable(line int) *tomlTable {
	return &tomlTable{line: line, vals: map[string]*tomlValue{}, lines: map[string]int{}}
}

// lineError is an error at a line of a file being read.
type lineError struct {
	line int
	msg  string
}

func (e *lineError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// maxNesting bounds arrays and inline tables inside each other in a rule file.
const maxNesting = 32

// tomlReader turns go-toml's syntax tree into tomlTables.
type tomlReader struct {
	p      unstable.Parser
	starts []int // the byte offset each line starts at
}

func parseTOML(src []byte) (*tomlTable, error) {
	if !utf8.Valid(src) {
		line := 1 + strings.Count(string(src[:firstInvalidUTF8(src)]), "\n")
		return nil, &lineError{line, "not valid UTF-8"}
	}
	r := &tomlReader{starts: []int{0}}
	for i, c := range src {
		if c == '\n' {
			r.starts = append(r.starts, i+1)
		}
	}
	r.p.Reset(src)
	root := newTable(1)
	cur := root
	for r.p.NextExpression() {
		e := r.p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			t, err := r.header(root, e)
			if err != nil {
				return nil, err
			}
			cur = t
		case unstable.KeyValue:
			if err := r.keyValue(cur, e, 0); err != nil {
				return nil, err
			}
		}
	}
	if err := r.p.Error(); err != nil {
		var pe *unstable.ParserError
		if errors.As(err, &pe) {
			line := 0
			if len(pe.Highlight) > 0 {
				line = r.lineAt(int(r.p.Range(pe.Highlight).Offset))
			}
			return nil, &lineError{max(line, 1), plainMessage(pe)}
		}
		return nil, err
	}
	return root, nil
}

// lineAt is the line holding byte offset off.
func (r *tomlReader) lineAt(off int) int {
	return sort.Search(len(r.starts), func(i int) bool { return r.starts[i] > off })
}

// lineOf is the line a node starts on, or def for nodes go-toml keeps no position of (arrays).
func (r *tomlReader) lineOf(n *unstable.Node, def int) int {
	if n.Raw.Length == 0 && n.Raw.Offset == 0 {
		return def
	}
	return r.lineAt(int(n.Raw.Offset))
}

// key reads a key that must be a single word, with the line it stands on.
func (r *tomlReader) key(it unstable.Iterator, what string) (string, int, error) {
	var parts []string
	line := 0
	for it.Next() {
		if line == 0 {
			line = r.lineOf(it.Node(), 1)
		}
		parts = append(parts, string(it.Node().Data))
	}
	if len(parts) != 1 {
		return "", line, &lineError{line, fmt.Sprintf("%s %q: rule files use no %s", what, strings.Join(parts, "."), map[string]string{"key": "dotted keys", "table": "nested table names"}[what])}
	}
	return parts[0], line, nil
}

func (r *tomlReader) header(root *tomlTable, e *unstable.Node) (*tomlTable, error) {
	name, line, err := r.key(e.Key(), "table")
	if err != nil {
		return nil, err
	}
	old := root.vals[name]
	t := newTable(line)
	if e.Kind == unstable.Table {
		if old != nil {
			return nil, &lineError{line, fmt.Sprintf("[%s] is already set on line %d", name, old.line)}
		}
		root.set(name, line, &tomlValue{kind: kindTable, line: line, table: t})
		return t, nil
	}
	if old == nil {
		old = &tomlValue{kind: kindArray, line: line, tableArray: true}
		root.set(name, line, old)
	} else if !old.tableArray {
		return nil, &lineError{line, fmt.Sprintf("[[%s]]: %q is something else already (line %d)", name, name, old.line)}
	}
	old.items = append(old.items, &tomlValue{kind: kindTable, line: line, table: t})
	return t, nil
}

func (r *tomlReader) keyValue(t *tomlTable, e *unstable.Node, depth int) error {
	k, line, err := r.key(e.Key(), "key")
	if err != nil {
		return err
	}
	if first, dup := t.lines[k]; dup {
		return &lineError{line, fmt.Sprintf("duplicate key %q (first set on line %d)", k, first)}
	}
	v, err := r.value(e.Value(), line, depth)
	if err != nil {
		return err
	}
	t.set(k, line, v)
	return nil
}

// value converts one value node; line is where the value's key stands, for nodes that keep no
// position of their own.
func (r *tomlReader) value(n *unstable.Node, line, depth int) (*tomlValue, error) {
	line = r.lineOf(n, line)
	if depth > maxNesting {
		return nil, &lineError{line, fmt.Sprintf("arrays and tables nested more than %d deep", maxNesting)}
	}
	switch n.Kind {
	case unstable.String:
		return &tomlValue{kind: kindString, line: line, str: string(n.Data)}, nil
	case unstable.Bool:
		return &tomlValue{kind: kindBool, line: line, b: string(n.Data) == "true"}, nil
	case unstable.Integer:
		num, err := strconv.ParseInt(strings.ReplaceAll(string(n.Data), "_", ""), 10, 64)
		if err != nil {
			return nil, &lineError{line, fmt.Sprintf("bad number %s: rule files take whole decimal numbers that fit 64 bits", n.Data)}
		}
		return &tomlValue{kind: kindInt, line: line, num: num}, nil
	case unstable.Float:
		return nil, &lineError{line, fmt.Sprintf("%s: rule files take whole decimal numbers, not fractions", n.Data)}
	case unstable.LocalDate, unstable.LocalTime, unstable.LocalDateTime, unstable.DateTime:
		return nil, &lineError{line, fmt.Sprintf("%s: rule files use no dates or times", n.Data)}
	case unstable.Array:
		v := &tomlValue{kind: kindArray, line: line}
		it := n.Children()
		for it.Next() {
			c := it.Node()
			if c.Kind == unstable.Comment {
				continue
			}
			item, err := r.value(c, line, depth+1)
			if err != nil {
				return nil, err
			}
			v.items = append(v.items, item)
		}
		return v, nil
	case unstable.InlineTable:
		t := newTable(line)
		it := n.Children()
		for it.Next() {
			c := it.Node()
			if c.Kind != unstable.KeyValue {
				continue
			}
			if err := r.keyValue(t, c, depth+1); err != nil {
				return nil, err
			}
		}
		return &tomlValue{kind: kindTable, line: line, table: t}, nil
	}
	return nil, &lineError{line, fmt.Sprintf("unexpected %s", n.Kind)}
}

// plainMessage words go-toml's messages for the mistakes rule authors make most, with the fix.
func plainMessage(pe *unstable.ParserError) string {
	msg := pe.Message
	switch {
	case strings.HasPrefix(msg, "invalid escape character") && len(pe.Highlight) == 2:
		return `invalid escape "` + string(pe.Highlight) + `" in a "string": write regexes in 'single quotes'`
	case strings.Contains(msg, "cannot have new lines"), strings.Contains(msg, "unterminated"),
		strings.Contains(msg, "not terminated"):
		return "string is not closed (" + msg + ")"
	case strings.HasSuffix(msg, "is incomplete"):
		return strings.TrimSuffix(msg, " is incomplete") + " is not closed"
	}
	return msg
}

func (t *tomlTable) set(key string, line int, v *tomlValue) {
	t.keys = append(t.keys, key)
	t.vals[key] = v
	t.lines[key] = line
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(b)
}
