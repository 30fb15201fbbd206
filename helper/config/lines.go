package config

import (
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// KeyLines maps every table and key of a TOML document to the line it is written on. Keys are
// dotted; the n-th table of an array of tables is written with its index, from 0
// ("hooks.commands.1.on"). A document that does not parse maps what came before the error.
func KeyLines(data []byte) map[string]int {
	lines := map[string]int{}
	walkKeys(data, func(name string, line int, _ *unstable.Node) { lines[name] = line })
	return lines
}

// walkKeys reads a TOML document top down and calls f with the dotted name (as KeyLines names
// it) and the line of every table header and key, and the key's value (nil for a header). A
// document that does not parse is read up to the error.
func walkKeys(data []byte, f func(name string, line int, value *unstable.Node)) {
	counts := map[string]int{}
	var p unstable.Parser
	p.Reset(data)
	table := ""
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			name := resolve(keyOf(e.Key()), counts)
			if e.Kind == unstable.ArrayTable {
				n := counts[name]
				counts[name] = n + 1
				name += "." + strconv.Itoa(n)
			}
			table = name
			f(table, lineOf(&p, e), nil)
		case unstable.KeyValue:
			k := keyOf(e.Key())
			if table != "" {
				k = table + "." + k
			}
			f(k, lineOf(&p, e), e.Value())
		}
	}
}

// resolve rewrites a header such as [hooks.commands.env] to the last array table it belongs to.
func resolve(name string, counts map[string]int) string {
	parts := strings.Split(name, ".")
	out := make([]string, 0, len(parts))
	for i, part := range parts {
		out = append(out, part)
		prefix := strings.Join(out, ".")
		if n, ok := counts[prefix]; ok && i < len(parts)-1 {
			out = append(out, strconv.Itoa(n-1))
		}
	}
	return strings.Join(out, ".")
}

func keyOf(it unstable.Iterator) string {
	var parts []string
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return strings.Join(parts, ".")
}

func lineOf(p *unstable.Parser, e *unstable.Node) int {
	it := e.Key()
	if it.Next() {
		return p.Shape(it.Node().Raw).Start.Line
	}
	return 0
}
