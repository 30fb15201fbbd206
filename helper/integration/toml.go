package integration

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// TOML edits, line by line, over a reading by go-toml: taw adds whole lines that carry its marker (or a block between two
// marker comments) and removes exactly those, so the rest of the file keeps its bytes.

// tawMark ends every line taw adds to a TOML or YAML config.
const tawMark = "# added by taw integration"

const (
	blockBegin = "# >>> taw integration (managed by taw integration; edit outside this block)"
	blockEnd   = "# <<< taw integration"
)

// checkTOML reads doc with go-toml: a file that is not TOML, or that defines a key twice, is
// refused with its line before taw edits it.
func checkTOML(doc []byte) error {
	_, err := decodeTOML(doc)
	return err
}

func decodeTOML(doc []byte) (map[string]any, error) {
	var m map[string]any
	if err := toml.Unmarshal(doc, &m); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, _ := de.Position()
			return nil, &ParseError{Msg: fmt.Sprintf("line %d: %s", line, de.Error())}
		}
		return nil, &ParseError{Msg: err.Error()}
	}
	return m, nil
}

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

// featuresHeader is the line index of doc's [features] table header, -1 when it has none.
func featuresHeader(doc []byte) int {
	var p unstable.Parser
	p.Reset(doc)
	for p.NextExpression() {
		e := p.Expression()
		if e.Kind != unstable.Table {
			continue
		}
		var parts []string
		var first unstable.Range
		for k := e.Key(); k.Next(); {
			if parts == nil {
				first = k.Node().Raw
			}
			parts = append(parts, string(k.Node().Data))
		}
		if len(parts) == 1 && parts[0] == "features" {
			return p.Shape(first).Start.Line - 1
		}
	}
	return -1
}

// EnableTOMLFeature makes sure [features] sets key = true. A key the user set already (true or
// false) is left as it is; the second result says it is set to something other than true.
func EnableTOMLFeature(doc []byte, key string) ([]byte, bool, error) {
	m, err := decodeTOML(doc)
	if err != nil {
		return nil, false, err
	}
	features, defined := m["features"]
	table, _ := features.(map[string]any)
	if defined && table == nil {
		return nil, false, &ParseError{Msg: "features is not a table; make it one to let taw set features." + key}
	}
	if v, set := table[key]; set {
		return doc, v != true, nil
	}
	var out []byte
	switch header := featuresHeader(doc); {
	case header >= 0:
		lines := strings.Split(string(doc), "\n")
		edited := append([]string{}, lines[:header+1]...)
		edited = append(edited, key+" = true "+tawMark)
		out = []byte(strings.Join(append(edited, lines[header+1:]...), "\n"))
	case defined:
		return nil, false, &ParseError{Msg: fmt.Sprintf("features is written inline or as dotted keys; add %s = true to it yourself, or write it as a [features] table", key)}
	default:
		out = appendLines(doc, []string{"[features] " + tawMark, key + " = true " + tawMark})
	}
	// The edit is read back: taw writes nothing that does not say what it meant to.
	if m, err := decodeTOML(out); err != nil || m["features"].(map[string]any)[key] != true {
		return nil, false, &ParseError{Msg: fmt.Sprintf("taw could not add features.%s = true here without changing the file's meaning; add it yourself", key)}
	}
	return out, false, nil
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
