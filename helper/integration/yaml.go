package integration

import (
	"bytes"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// Hermes keeps the plugins it loads in config.yaml, under plugins.enabled. taw reads the file with
// yaml.v3 and edits it line by line at the places the reading gives: it adds a "- <name>" item
// (and the plugins: and enabled: keys when missing, each with taw's marker) and removes exactly
// those lines, so comments and the person's layout keep their bytes.

// yamlPlugins is what an edit needs to know of a document: the plugins key, its enabled key and
// the items of that list. Lines count from 0; -1 is "not there".
type yamlPlugins struct {
	plugins, enabled int
	childIndent      string // the indentation of plugins' keys
	items            []yamlItem
}

type yamlItem struct {
	line  int
	value string
}

func readYAMLPlugins(doc []byte) (*yamlPlugins, error) {
	out := &yamlPlugins{plugins: -1, enabled: -1, childIndent: "  "}
	var root yaml.Node
	if err := yaml.Unmarshal(doc, &root); err != nil {
		return nil, &ParseError{Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if len(root.Content) == 0 {
		return out, nil
	}
	top := root.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, &ParseError{Msg: "the top level is not a mapping"}
	}
	plugins := mappingValue(top, "plugins")
	if plugins == nil {
		return out, nil
	}
	out.plugins = plugins.key.Line - 1
	v := plugins.value
	switch empty, err := blockOf(v, yaml.MappingNode, "plugins", "a mapping", "a block"); {
	case err != nil:
		return nil, err
	case empty:
		return out, nil
	}
	if len(v.Content) > 0 {
		out.childIndent = strings.Repeat(" ", v.Content[0].Column-1)
	}
	enabled := mappingValue(v, "enabled")
	if enabled == nil {
		return out, nil
	}
	out.enabled = enabled.key.Line - 1
	list := enabled.value
	switch empty, err := blockOf(list, yaml.SequenceNode, "plugins.enabled", "a list", "a block list"); {
	case err != nil:
		return nil, err
	case empty:
		return out, nil
	}
	for _, it := range list.Content {
		out.items = append(out.items, yamlItem{line: it.Line - 1, value: it.Value})
	}
	return out, nil
}

type yamlPair struct{ key, value *yaml.Node }

// blockOf checks that v, the value of key, is either empty (null: empty is true) or written as a
// block of the kind wanted (called what and, in block form, block), the only form taw edits in
// place line by line.
func blockOf(v *yaml.Node, kind yaml.Kind, key, what, block string) (empty bool, err error) {
	switch {
	case v.Kind == yaml.ScalarNode && v.Tag == "!!null":
		return true, nil
	case v.Kind != kind:
		return false, &ParseError{Msg: fmt.Sprintf("line %d: %s is not %s", v.Line, key, what)}
	case v.Style&yaml.FlowStyle != 0:
		return false, &ParseError{Msg: fmt.Sprintf("line %d: %s is written inline; write it as %s to let taw add its plugin", v.Line, key, block)}
	}
	return false, nil
}

func mappingValue(m *yaml.Node, key string) *yamlPair {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return &yamlPair{m.Content[i], m.Content[i+1]}
		}
	}
	return nil
}

// EnableYAMLPlugin adds name to plugins.enabled.
func EnableYAMLPlugin(doc []byte, name string) ([]byte, error) {
	y, err := readYAMLPlugins(doc)
	if err != nil {
		return nil, err
	}
	for _, it := range y.items {
		if it.value == name {
			return doc, nil
		}
	}
	lines := strings.Split(string(doc), "\n")
	insert := func(at int, add ...string) []byte {
		out := append([]string{}, lines[:at]...)
		out = append(out, add...)
		return []byte(strings.Join(append(out, lines[at:]...), "\n"))
	}
	var out []byte
	switch {
	case y.plugins < 0:
		out = appendLines(doc, []string{"plugins: " + tawMark, "  enabled: " + tawMark, "    - " + name})
	case y.enabled < 0:
		out = insert(y.plugins+1, y.childIndent+"enabled: "+tawMark, y.childIndent+"  - "+name)
	case len(y.items) == 0:
		out = insert(y.enabled+1, y.childIndent+"  - "+name)
	default:
		last := lines[y.items[len(y.items)-1].line]
		dash := strings.Index(last, "-")
		out = insert(y.items[len(y.items)-1].line+1, last[:dash]+"- "+name)
	}
	// The edit is read back: taw writes nothing that does not say what it meant to.
	if after, err := readYAMLPlugins(out); err != nil || !after.has(name) {
		return nil, &ParseError{Msg: fmt.Sprintf("taw could not add %s to plugins.enabled without changing the file's meaning; add it yourself", name)}
	}
	return out, nil
}

func (y *yamlPlugins) has(name string) bool {
	for _, it := range y.items {
		if it.value == name {
			return true
		}
	}
	return false
}

// DisableYAMLPlugin removes name from plugins.enabled, and the keys taw added for it.
func DisableYAMLPlugin(doc []byte, name string) ([]byte, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		return doc, nil
	}
	y, err := readYAMLPlugins(doc)
	if err != nil {
		return nil, err
	}
	drop := map[int]bool{}
	for _, it := range y.items {
		if it.value == name {
			drop[it.line] = true
		}
	}
	return dropLines(doc, func(i int, l string) bool { return drop[i] || strings.HasSuffix(l, tawMark) }), nil
}
