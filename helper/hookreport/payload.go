package hookreport

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// HeadBytes is how much of a payload is read: every key the rules use comes near the top, and
// a payload can be megabytes (a tool's whole output).
const HeadBytes = 64 << 10

// maxDepth bounds how deep the scan records values: tool_input.questions.0.question is four.
const maxDepth = 4

// Payload is the scalar values of a payload's head, by dotted path ("tool_input.command",
// "tool_input.questions.0.question"). A payload cut off in the middle keeps what came before.
type Payload map[string]string

// Get is the first of the paths that has a value, "" when none has.
func (p Payload) Get(paths ...string) string {
	for _, k := range paths {
		if v, ok := p[k]; ok && v != "" {
			return v
		}
	}
	return ""
}

// Parse reads the scalar values of a JSON payload (or its head). It never fails: what cannot be
// read is left out.
func Parse(b []byte) Payload {
	p := Payload{}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	type frame struct {
		prefix string
		array  bool
		index  int
		key    string // the pending key of an object
		hasKey bool
	}
	var stack []frame
	path := func(last string) string {
		var parts []string
		for _, f := range stack {
			if f.prefix != "" {
				parts = append(parts, f.prefix)
			}
		}
		parts = append(parts, last)
		return strings.Join(parts, ".")
	}
	// next is the name the next value gets in its container, and advances the container.
	next := func() (string, bool) {
		if len(stack) == 0 {
			return "", false
		}
		top := &stack[len(stack)-1]
		if top.array {
			name := strconv.Itoa(top.index)
			top.index++
			return name, true
		}
		if !top.hasKey {
			return "", false
		}
		top.hasKey = false
		return top.key, true
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return p
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				name, _ := next()
				stack = append(stack, frame{prefix: name, array: t == '['})
			case '}', ']':
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
			}
		default:
			if len(stack) > 0 && !stack[len(stack)-1].array && !stack[len(stack)-1].hasKey {
				// An object's key.
				if s, ok := t.(string); ok {
					stack[len(stack)-1].key, stack[len(stack)-1].hasKey = s, true
				}
				continue
			}
			name, ok := next()
			if !ok || len(stack) > maxDepth {
				continue
			}
			k := path(name)
			if _, seen := p[k]; seen {
				continue // the first value of a duplicated key, as the agents read it
			}
			switch v := t.(type) {
			case string:
				p[k] = v
			case json.Number:
				p[k] = v.String()
			case bool:
				p[k] = strconv.FormatBool(v)
			}
		}
	}
}
