package integration

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// TOML edits, line by line: taw adds whole lines that carry its marker (or a block between two
// marker comments) and removes exactly those, so the rest of the file keeps its bytes.

// tawMark ends every line taw adds to a TOML or YAML config.
const tawMark = "# added by taw integration"

const (
	blockBegin = "# >>> taw integration (managed by taw integration; edit outside this block)"
	blockEnd   = "# <<< taw integration"
)

// checkTOML is a light reading of TOML's shape: every line outside a multi-line string or array
// is blank, a comment, a [table] or [[array]] header or a key = value. It catches a file that is
// not TOML at all before taw edits it.
func checkTOML(doc []byte) error {
	depth, inString := 0, ""
	for n, raw := range strings.Split(string(doc), "\n") {
		line := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		if inString != "" {
			if strings.Contains(line, inString) {
				inString = ""
			}
			continue
		}
		if depth == 0 {
			switch {
			case line == "" || strings.HasPrefix(line, "#"):
				continue
			case strings.HasPrefix(line, "["):
				if !regexp.MustCompile(`^\[\[?[^\[\]]+\]\]?\s*(#.*)?$`).MatchString(line) {
					return &ParseError{Msg: fmt.Sprintf("line %d: bad table header %q", n+1, line)}
				}
				continue
			case !strings.Contains(line, "="):
				return &ParseError{Msg: fmt.Sprintf("line %d: expected key = value, found %q", n+1, line)}
			}
		}
		for _, q := range []string{`"""`, `'''`} {
			if strings.Count(line, q)%2 == 1 {
				inString = q
			}
		}
		if inString == "" {
			depth += strings.Count(stripTOMLStrings(line), "[") + strings.Count(stripTOMLStrings(line), "{")
			depth -= strings.Count(stripTOMLStrings(line), "]") + strings.Count(stripTOMLStrings(line), "}")
			if depth < 0 {
				return &ParseError{Msg: fmt.Sprintf("line %d: unbalanced brackets", n+1)}
			}
		}
	}
	if depth != 0 || inString != "" {
		return &ParseError{Msg: "unterminated array, inline table or string"}
	}
	return nil
}

var tomlStrings = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"(\\.|[^"\\])*"|'[^']*'|#.*$`) })

func stripTOMLStrings(line string) string { return tomlStrings().ReplaceAllString(line, "") }

func tomlQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

// appendLines adds lines at the end of doc, after one blank line when doc holds anything.
func appendLines(doc []byte, lines []string) []byte {
	var b bytes.Buffer
	b.Write(doc)
	if len(doc) > 0 {
		if doc[len(doc)-1] != '\n' {
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// dropLines removes the lines drop says are taw's, and the blank line appendLines put before a
// run of them at the end of the file.
func dropLines(doc []byte, drop func(i int, line string) bool) []byte {
	if len(doc) == 0 {
		return doc
	}
	lines := strings.SplitAfter(string(doc), "\n")
	var kept []string
	removedTail := false
	for i, l := range lines {
		if drop(i, strings.TrimRight(l, "\r\n")) {
			removedTail = true
			continue
		}
		if l != "" {
			removedTail = false
		}
		kept = append(kept, l)
	}
	out := strings.Join(kept, "")
	if removedTail && strings.HasSuffix(out, "\n\n") {
		out = strings.TrimSuffix(out, "\n")
	}
	return []byte(out)
}

var (
	tomlHeader   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[([^\[\]]+)\]\s*(#.*)?$`) })
	tomlAnyTable = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[`) })
)

// featureState says whether a [features] table (or a dotted features.<key>) sets key, and to
// what; and the index of the [features] header line, -1 when there is none.
func featureState(lines []string, key string) (value string, header int) {
	header = -1
	inFeatures := false
	keyLine := regexp.MustCompile(`^\s*` + regexp.QuoteMeta(key) + `\s*=\s*([^#\s]+)`)
	dotted := regexp.MustCompile(`^\s*features\.` + regexp.QuoteMeta(key) + `\s*=\s*([^#\s]+)`)
	top := true
	for i, l := range lines {
		if m := tomlHeader().FindStringSubmatch(l); m != nil {
			inFeatures = strings.TrimSpace(m[1]) == "features"
			top = false
			if inFeatures {
				header = i
			}
			continue
		}
		if tomlAnyTable().MatchString(l) {
			inFeatures, top = false, false
			continue
		}
		if m := keyLine.FindStringSubmatch(l); inFeatures && m != nil {
			value = m[1]
		}
		if m := dotted.FindStringSubmatch(l); top && m != nil {
			value = m[1]
		}
	}
	return value, header
}

// EnableTOMLFeature makes sure [features] sets key = true. A key the user set already (true or
// false) is left as it is; the second result says it is set to something other than true.
func EnableTOMLFeature(doc []byte, key string) ([]byte, bool, error) {
	if err := checkTOML(doc); err != nil {
		return nil, false, err
	}
	lines := strings.Split(string(doc), "\n")
	value, header := featureState(lines, key)
	switch {
	case value == "true":
		return doc, false, nil
	case value != "":
		return doc, true, nil
	case header >= 0:
		out := append([]string{}, lines[:header+1]...)
		out = append(out, key+" = true "+tawMark)
		out = append(out, lines[header+1:]...)
		return []byte(strings.Join(out, "\n")), false, nil
	}
	return appendLines(doc, []string{"[features] " + tawMark, key + " = true " + tawMark}), false, nil
}

// RemoveTaggedLines takes out every line taw added (those ending in its marker).
func RemoveTaggedLines(doc []byte) ([]byte, error) {
	return dropLines(doc, func(_ int, l string) bool { return strings.HasSuffix(l, tawMark) }), nil
}

// KimiHook is one [[hooks]] table of Kimi's config.
type KimiHook struct {
	Event, Command string
	Timeout        int
}

// SetTOMLBlock puts taw's block of [[hooks]] tables at the end of doc, replacing the block an
// earlier install wrote.
func SetTOMLBlock(doc []byte, hooks []KimiHook) ([]byte, error) {
	if err := checkTOML(doc); err != nil {
		return nil, err
	}
	doc, _ = RemoveTOMLBlock(doc)
	lines := []string{blockBegin}
	for i, h := range hooks {
		if i > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, "[[hooks]]", "event = "+tomlQuote(h.Event), "command = "+tomlQuote(h.Command))
		if h.Timeout > 0 {
			lines = append(lines, fmt.Sprintf("timeout = %d", h.Timeout))
		}
	}
	lines = append(lines, blockEnd)
	return appendLines(doc, lines), nil
}

// RemoveTOMLBlock takes out taw's block, markers included.
func RemoveTOMLBlock(doc []byte) ([]byte, error) {
	in := false
	return dropLines(doc, func(_ int, l string) bool {
		switch {
		case l == blockBegin:
			in = true
			return true
		case in && l == blockEnd:
			in = false
			return true
		}
		return in
	}), nil
}
