package detect

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Rule files are TOML. taw reads them with this small parser of its own rather than a library so
// that every value keeps its line for error messages and the loader can reject unknown keys at
// the line they are on. It reads the part of TOML that rule files use: comments, bare and quoted
// keys, [table] and [[array of tables]] headers, basic, literal and multi-line strings, integers,
// booleans, arrays and inline tables (which may span lines, as TOML 1.1 allows). Floats, dates
// and dotted keys are refused with a message saying so.

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

// maxNesting bounds arrays and inline tables inside each other, so garbage cannot exhaust the
// stack.
const maxNesting = 32

type tomlParser struct {
	src   string
	pos   int
	line  int
	depth int
}

func parseTOML(src []byte) (root *tomlTable, err error) {
	if !utf8.Valid(src) {
		line := 1 + strings.Count(string(src[:firstInvalidUTF8(src)]), "\n")
		return nil, &lineError{line, "not valid UTF-8"}
	}
	p := &tomlParser{src: strings.TrimPrefix(string(src), "\uFEFF"), line: 1}
	root = newTable(1)
	cur := root
	for {
		p.skipBlankLines()
		if p.eof() {
			return root, nil
		}
		if p.peek() == '[' {
			if cur, err = p.header(root); err != nil {
				return nil, err
			}
			continue
		}
		if err := p.keyValue(cur); err != nil {
			return nil, err
		}
		if err := p.endOfLine(); err != nil {
			return nil, err
		}
	}
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

func (p *tomlParser) eof() bool  { return p.pos >= len(p.src) }
func (p *tomlParser) peek() byte { return p.src[p.pos] }

func (p *tomlParser) errf(format string, args ...any) error {
	return &lineError{p.line, fmt.Sprintf(format, args...)}
}

func (p *tomlParser) skipSpaces() {
	for !p.eof() && (p.peek() == ' ' || p.peek() == '\t') {
		p.pos++
	}
}

func (p *tomlParser) skipComment() {
	if !p.eof() && p.peek() == '#' {
		for !p.eof() && p.peek() != '\n' {
			p.pos++
		}
	}
}

// skipBlankLines skips spaces, comments and newlines, as between top-level lines and inside
// arrays and inline tables.
func (p *tomlParser) skipBlankLines() {
	for {
		p.skipSpaces()
		p.skipComment()
		if p.eof() {
			return
		}
		switch {
		case p.peek() == '\n':
			p.pos++
			p.line++
		case strings.HasPrefix(p.src[p.pos:], "\r\n"):
			p.pos += 2
			p.line++
		default:
			return
		}
	}
}

func (p *tomlParser) endOfLine() error {
	p.skipSpaces()
	p.skipComment()
	switch {
	case p.eof():
		return nil
	case p.peek() == '\n':
		return nil
	case strings.HasPrefix(p.src[p.pos:], "\r\n"):
		return nil
	}
	return p.errf("expected the end of the line, found %q", p.rest(12))
}

func (p *tomlParser) rest(n int) string {
	s := p.src[p.pos:]
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > n {
		s = s[:n] + "…"
	}
	return s
}

// header reads "[name]" or "[[name]]" and returns the table that the following keys go into.
func (p *tomlParser) header(root *tomlTable) (*tomlTable, error) {
	line := p.line
	array := strings.HasPrefix(p.src[p.pos:], "[[")
	if array {
		p.pos += 2
	} else {
		p.pos++
	}
	p.skipSpaces()
	name, err := p.key()
	if err != nil {
		return nil, err
	}
	p.skipSpaces()
	closing := "]"
	if array {
		closing = "]]"
	}
	if !strings.HasPrefix(p.src[p.pos:], closing) {
		if !p.eof() && p.peek() == '.' {
			return nil, p.errf("nested table names like [%s.…] are not used in rule files", name)
		}
		return nil, p.errf("expected %q after [%s", closing, name)
	}
	p.pos += len(closing)
	if err := p.endOfLine(); err != nil {
		return nil, err
	}
	t := newTable(line)
	old, exists := root.vals[name]
	switch {
	case array && exists && !old.tableArray:
		return nil, p.errf("[[%s]]: %q is already set on line %d as something else", name, name, root.lines[name])
	case array && exists:
		old.items = append(old.items, &tomlValue{kind: kindTable, line: line, table: t})
	case array:
		root.set(name, line, &tomlValue{kind: kindArray, line: line, tableArray: true,
			items: []*tomlValue{{kind: kindTable, line: line, table: t}}})
	case exists:
		return nil, p.errf("[%s]: %q is already set on line %d", name, name, root.lines[name])
	default:
		root.set(name, line, &tomlValue{kind: kindTable, line: line, table: t})
	}
	return t, nil
}

func (t *tomlTable) set(key string, line int, v *tomlValue) {
	t.keys = append(t.keys, key)
	t.vals[key] = v
	t.lines[key] = line
}

func (p *tomlParser) keyValue(t *tomlTable) error {
	line := p.line
	k, err := p.key()
	if err != nil {
		return err
	}
	p.skipSpaces()
	if !p.eof() && p.peek() == '.' {
		return p.errf("dotted keys like %s.… are not used in rule files; write an inline table", k)
	}
	if p.eof() || p.peek() != '=' {
		return p.errf("expected \"=\" after key %q", k)
	}
	p.pos++
	p.skipSpaces()
	if first, dup := t.lines[k]; dup {
		return p.errf("duplicate key %q (first set on line %d)", k, first)
	}
	v, err := p.value()
	if err != nil {
		return err
	}
	t.set(k, line, v)
	return nil
}

func (p *tomlParser) key() (string, error) {
	if p.eof() {
		return "", p.errf("expected a key, found the end of the file")
	}
	switch p.peek() {
	case '"':
		return p.basicString()
	case '\'':
		return p.literalString()
	}
	start := p.pos
	for !p.eof() {
		c := p.peek()
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			p.pos++
			continue
		}
		break
	}
	if p.pos == start {
		return "", p.errf("expected a key, found %q", p.rest(12))
	}
	return p.src[start:p.pos], nil
}

func (p *tomlParser) value() (*tomlValue, error) {
	if p.eof() {
		return nil, p.errf("expected a value, found the end of the file")
	}
	line := p.line
	switch c := p.peek(); {
	case c == '"':
		var s string
		var err error
		if strings.HasPrefix(p.src[p.pos:], `"""`) {
			s, err = p.multilineString('"')
		} else {
			s, err = p.basicString()
		}
		return &tomlValue{kind: kindString, line: line, str: s}, err
	case c == '\'':
		var s string
		var err error
		if strings.HasPrefix(p.src[p.pos:], `'''`) {
			s, err = p.multilineString('\'')
		} else {
			s, err = p.literalString()
		}
		return &tomlValue{kind: kindString, line: line, str: s}, err
	case c == '[':
		return p.array()
	case c == '{':
		return p.inlineTable()
	case strings.HasPrefix(p.src[p.pos:], "true"):
		p.pos += 4
		return &tomlValue{kind: kindBool, line: line, b: true}, nil
	case strings.HasPrefix(p.src[p.pos:], "false"):
		p.pos += 5
		return &tomlValue{kind: kindBool, line: line}, nil
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		return p.integer()
	}
	return nil, p.errf("expected a value (a \"string\", 'string', number, true/false, [array] or {table}), found %q", p.rest(12))
}

func (p *tomlParser) integer() (*tomlValue, error) {
	start := p.pos
	for !p.eof() && strings.IndexByte("+-0123456789_", p.peek()) >= 0 {
		p.pos++
	}
	if !p.eof() && strings.IndexByte(".eE:xob", p.peek()) >= 0 {
		return nil, p.errf("only whole decimal numbers are used in rule files, found %q", p.src[start:p.pos]+p.rest(8))
	}
	text := p.src[start:p.pos]
	if strings.Contains(text, "__") || strings.HasPrefix(strings.TrimLeft(text, "+-"), "_") || strings.HasSuffix(text, "_") {
		return nil, p.errf("bad number %q", text)
	}
	n, err := strconv.ParseInt(strings.ReplaceAll(text, "_", ""), 10, 64)
	if err != nil {
		return nil, p.errf("bad number %q", text)
	}
	return &tomlValue{kind: kindInt, line: p.line, num: n}, nil
}

func (p *tomlParser) nest() error {
	p.depth++
	if p.depth > maxNesting {
		return p.errf("arrays and tables nested more than %d deep", maxNesting)
	}
	return nil
}

func (p *tomlParser) array() (*tomlValue, error) {
	v := &tomlValue{kind: kindArray, line: p.line}
	if err := p.nest(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.pos++ // [
	for {
		p.skipBlankLines()
		if p.eof() {
			return nil, p.errf("array opened on line %d is not closed with \"]\"", v.line)
		}
		if p.peek() == ']' {
			p.pos++
			return v, nil
		}
		item, err := p.value()
		if err != nil {
			return nil, err
		}
		v.items = append(v.items, item)
		p.skipBlankLines()
		if p.eof() {
			return nil, p.errf("array opened on line %d is not closed with \"]\"", v.line)
		}
		switch p.peek() {
		case ',':
			p.pos++
		case ']':
		default:
			return nil, p.errf("expected \",\" or \"]\" in the array, found %q", p.rest(12))
		}
	}
}

func (p *tomlParser) inlineTable() (*tomlValue, error) {
	t := newTable(p.line)
	v := &tomlValue{kind: kindTable, line: p.line, table: t}
	if err := p.nest(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.pos++ // {
	for {
		p.skipBlankLines()
		if p.eof() {
			return nil, p.errf("table opened on line %d is not closed with \"}\"", v.line)
		}
		if p.peek() == '}' {
			p.pos++
			return v, nil
		}
		if err := p.keyValue(t); err != nil {
			return nil, err
		}
		p.skipBlankLines()
		if p.eof() {
			return nil, p.errf("table opened on line %d is not closed with \"}\"", v.line)
		}
		switch p.peek() {
		case ',':
			p.pos++
		case '}':
		default:
			return nil, p.errf("expected \",\" or \"}\" in the table, found %q", p.rest(12))
		}
	}
}

func (p *tomlParser) literalString() (string, error) {
	p.pos++ // '
	start := p.pos
	for !p.eof() {
		c := p.peek()
		switch {
		case c == '\'':
			s := p.src[start:p.pos]
			p.pos++
			return s, nil
		case c == '\n':
			return "", p.errf("string is not closed on its line (use ''' for several lines)")
		case c < 0x20 && c != '\t' || c == 0x7f:
			return "", p.errf("control character %U in a string", c)
		}
		p.pos++
	}
	return "", p.errf("string is not closed")
}

func (p *tomlParser) basicString() (string, error) {
	p.pos++ // "
	var b strings.Builder
	for !p.eof() {
		c := p.peek()
		switch {
		case c == '"':
			p.pos++
			return b.String(), nil
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
			continue
		case c == '\n':
			return "", p.errf("string is not closed on its line (use \"\"\" for several lines)")
		case c < 0x20 && c != '\t' || c == 0x7f:
			return "", p.errf("control character %U in a string", c)
		}
		b.WriteByte(c)
		p.pos++
	}
	return "", p.errf("string is not closed")
}

func (p *tomlParser) escape(b *strings.Builder) error {
	p.pos++ // backslash
	if p.eof() {
		return p.errf("string is not closed")
	}
	c := p.peek()
	p.pos++
	simple := map[byte]string{'b': "\b", 't': "\t", 'n': "\n", 'f': "\f", 'r': "\r", '"': `"`, '\\': `\`, 'e': "\x1b"}
	if s, ok := simple[c]; ok {
		b.WriteString(s)
		return nil
	}
	digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
	if digits == 0 || p.pos+digits > len(p.src) {
		return p.errf(`invalid escape "\%c" in a "string": write regexes in 'single quotes', where backslashes are kept as they are`, c)
	}
	n, err := strconv.ParseUint(p.src[p.pos:p.pos+digits], 16, 32)
	if err != nil || !utf8.ValidRune(rune(n)) {
		return p.errf(`invalid escape "\%c%s"`, c, p.src[p.pos:p.pos+digits])
	}
	p.pos += digits
	b.WriteRune(rune(n))
	return nil
}

// multilineString reads a """…""" or ”'…”' string. A newline right after the opening quotes is
// dropped, as TOML says.
func (p *tomlParser) multilineString(q byte) (string, error) {
	startLine := p.line
	p.pos += 3
	if strings.HasPrefix(p.src[p.pos:], "\n") {
		p.pos++
		p.line++
	} else if strings.HasPrefix(p.src[p.pos:], "\r\n") {
		p.pos += 2
		p.line++
	}
	var b strings.Builder
	for !p.eof() {
		c := p.peek()
		switch {
		case c == q && strings.HasPrefix(p.src[p.pos:], strings.Repeat(string(q), 3)):
			n := 0
			for p.pos+n < len(p.src) && p.src[p.pos+n] == q && n < 5 {
				n++
			}
			b.WriteString(strings.Repeat(string(q), n-3)) // up to two quotes may end the text
			p.pos += n
			return b.String(), nil
		case c == '\\' && q == '"':
			rest := strings.TrimLeft(p.src[p.pos+1:], " \t")
			if strings.HasPrefix(rest, "\n") || strings.HasPrefix(rest, "\r\n") {
				// A line-ending backslash joins the next non-blank text.
				p.pos++
				for !p.eof() && strings.IndexByte(" \t\r\n", p.peek()) >= 0 {
					if p.peek() == '\n' {
						p.line++
					}
					p.pos++
				}
				continue
			}
			if err := p.escape(&b); err != nil {
				return "", err
			}
			continue
		case c == '\n':
			p.line++
		case c == '\r' && strings.HasPrefix(p.src[p.pos:], "\r\n"):
		case c < 0x20 && c != '\t' || c == 0x7f:
			return "", p.errf("control character %U in a string", c)
		}
		b.WriteByte(c)
		p.pos++
	}
	return "", &lineError{startLine, "multi-line string is not closed"}
}
