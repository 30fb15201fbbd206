package integration

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Hermes keeps the plugins it loads in config.yaml, under plugins.enabled. taw edits that list
// line by line: it adds a "- <name>" item (and the plugins: and enabled: keys when missing, each
// with taw's marker) and removes exactly those lines.

var (
	yamlTopKey   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z0-9_.-]+)\s*:(.*)$`) })
	yamlChildKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s+)([A-Za-z0-9_.-]+)\s*:(.*)$`) })
	yamlItem     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*)-\s+(.*?)\s*(#.*)?$`) })
)

func yamlRest(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "#"); i >= 0 && (i == 0 || s[i-1] == ' ') {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

func checkYAML(doc []byte) error {
	for n, l := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(strings.TrimLeft(l, " "), "\t") {
			return &ParseError{Msg: fmt.Sprintf("line %d: a tab in the indentation, which YAML does not allow", n+1)}
		}
	}
	return nil
}

// EnableYAMLPlugin adds name to plugins.enabled.
func EnableYAMLPlugin(doc []byte, name string) ([]byte, error) {
	if err := checkYAML(doc); err != nil {
		return nil, err
	}
	lines := strings.Split(string(doc), "\n")
	plugins := -1
	for i, l := range lines {
		if m := yamlTopKey().FindStringSubmatch(l); m != nil && m[1] == "plugins" {
			if yamlRest(m[2]) != "" {
				return nil, &ParseError{Msg: fmt.Sprintf("line %d: plugins is written inline (%s); write it as a block to let taw add %s", i+1, yamlRest(m[2]), name)}
			}
			plugins = i
		}
	}
	if plugins < 0 {
		return appendLines(doc, []string{"plugins: " + tawMark, "  enabled: " + tawMark, "    - " + name}), nil
	}
	// The plugins block: the lines after it that are indented, blank or comments.
	end := plugins + 1
	for end < len(lines) && (strings.TrimSpace(lines[end]) == "" || strings.HasPrefix(lines[end], " ") || strings.HasPrefix(strings.TrimSpace(lines[end]), "#")) {
		end++
	}
	childIndent := "  "
	enabled := -1
	for i := plugins + 1; i < end; i++ {
		if m := yamlChildKey().FindStringSubmatch(lines[i]); m != nil {
			if enabled < 0 || len(m[1]) <= len(childIndent) {
				childIndent = m[1]
			}
			if m[2] == "enabled" && len(m[1]) == len(childIndent) {
				if rest := yamlRest(m[3]); rest != "" {
					return nil, &ParseError{Msg: fmt.Sprintf("line %d: plugins.enabled is written inline (%s); write it as a block list to let taw add %s", i+1, rest, name)}
				}
				enabled = i
			}
		}
	}
	insert := func(at int, add ...string) []byte {
		out := append([]string{}, lines[:at]...)
		out = append(out, add...)
		return []byte(strings.Join(append(out, lines[at:]...), "\n"))
	}
	if enabled < 0 {
		return insert(plugins+1, childIndent+"enabled: "+tawMark, childIndent+"  - "+name), nil
	}
	last, itemIndent := enabled, ""
	for i := enabled + 1; i < end; i++ {
		m := yamlItem().FindStringSubmatch(lines[i])
		if m == nil {
			if strings.TrimSpace(lines[i]) == "" || strings.HasPrefix(strings.TrimSpace(lines[i]), "#") {
				continue
			}
			break
		}
		if len(m[1]) < len(childIndent) {
			break
		}
		if strings.Trim(m[2], `"'`) == name {
			return []byte(strings.Join(lines, "\n")), nil
		}
		last, itemIndent = i, m[1]
	}
	if itemIndent == "" {
		itemIndent = childIndent + "  "
	}
	return insert(last+1, itemIndent+"- "+name), nil
}

// DisableYAMLPlugin removes name from plugins.enabled, and the keys taw added for it.
func DisableYAMLPlugin(doc []byte, name string) ([]byte, error) {
	return dropLines(doc, func(_ int, l string) bool {
		if strings.HasSuffix(l, tawMark) {
			return true
		}
		m := yamlItem().FindStringSubmatch(l)
		return m != nil && strings.Trim(m[2], `"'`) == name
	}), nil
}
