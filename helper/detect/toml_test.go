package detect

import (
	"strings"
	"testing"
)

func TestTOMLValues(t *testing.T) {
	src := `# a comment
title = "tab\there \u00e9 \"q\" \\ \x41" # trailing comment
literal = 'C:\path\n'
'quoted key' = 1_000
neg = -42
yes = true
no = false
multi = """
first
second \
    joined"""
lit_multi = '''
raw \n ''quoted''
'''
list = [
  "a", # one
  'b',
]
nested = [[1, 2], []]
inline = { a = "x", b = [ { c = true } ] }

[table]
k = "v"

[[rows]]
n = 1
[[rows]]
n = 2
`
	root, err := parseTOML([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	str := func(k string) string { return root.vals[k].str }
	checks := map[string]string{
		"title":     "tab\there é \"q\" \\ A",
		"literal":   `C:\path\n`,
		"multi":     "first\nsecond joined",
		"lit_multi": "raw \\n ''quoted''\n",
	}
	for k, want := range checks {
		if got := str(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if v := root.vals["quoted key"]; v == nil || v.num != 1000 {
		t.Errorf("quoted key = %+v", v)
	}
	if root.vals["neg"].num != -42 || !root.vals["yes"].b || root.vals["no"].b {
		t.Error("numbers or booleans misread")
	}
	if l := root.vals["list"]; len(l.items) != 2 || l.items[1].str != "b" || l.line != 15 {
		t.Errorf("list = %+v", l)
	}
	if n := root.vals["nested"]; len(n.items) != 2 || len(n.items[0].items) != 2 {
		t.Errorf("nested = %+v", n)
	}
	in := root.vals["inline"].table
	if in.vals["a"].str != "x" || !in.vals["b"].items[0].table.vals["c"].b {
		t.Errorf("inline = %+v", in)
	}
	if root.vals["table"].table.vals["k"].str != "v" {
		t.Error("table misread")
	}
	rows := root.vals["rows"]
	if !rows.tableArray || len(rows.items) != 2 || rows.items[1].table.vals["n"].num != 2 || rows.items[1].line != 27 {
		t.Errorf("rows = %+v", rows)
	}
	if got := strings.Join(root.keys[:3], ","); got != "title,literal,quoted key" {
		t.Errorf("key order = %s", got)
	}
}

// Every error keeps the line it is on; the messages are go-toml's, reworded where a rule author
// needs the fix.
func TestTOMLErrors(t *testing.T) {
	tests := []struct {
		src  string
		line int
		msg  string
	}{
		{"a = \"open\n", 1, "not closed"},
		{"\n\na = 'open", 3, "not closed"},
		{"a = \"\\d+\"", 1, `invalid escape "\d" in a "string": write regexes in 'single quotes'`},
		{"a = 1\na = 2", 2, `duplicate key "a" (first set on line 1)`},
		{"[t]\nx = 1\nx = 2", 3, `duplicate key "x" (first set on line 2)`},
		{"a.b = 1", 1, "dotted keys"},
		{"a = 1.5", 1, "whole decimal numbers"},
		{"a = 1979-05-27", 1, "no dates"},
		{"a = 0x10", 1, "whole decimal"},
		{"a = 99999999999999999999", 1, "bad number"},
		{"a = nope", 1, "expected"},
		{"a = [1, 2", 1, "not closed"},
		{"a = [\n1\n2]", 3, "expected ',' or ']'"},
		{"a = { b = 1", 1, "not closed"},
		{"a = { b = 1, b = 2 }", 1, "duplicate key"},
		{"a = 1 b = 2", 1, "expected newline"},
		{"= 1", 1, "key"},
		{"a 1", 1, "expected '='"},
		{"[t]\n[t]", 2, "already set on line 1"},
		{"t = 1\n[[t]]", 2, "something else"},
		{"[t.u]", 1, "nested table names"},
		{"\n[t", 2, "expected ']'"},
		{"a = \"ok\"\nb = \"\xff\"", 2, "UTF-8"},
		{"a = '''\nnever closed", 2, "not closed"},
		{"a = \"bell\x07\"", 1, "control character"},
		{"a = \"\\u12\"", 1, "escape"},
		{"a = 1__0", 1, "underscores"},
	}
	for _, tt := range tests {
		_, err := parseTOML([]byte(tt.src))
		le, ok := err.(*lineError)
		if !ok {
			t.Errorf("%q: err = %v, want a line error", tt.src, err)
			continue
		}
		if le.line != tt.line || !strings.Contains(le.msg, tt.msg) {
			t.Errorf("%q: got line %d %q, want line %d containing %q", tt.src, le.line, le.msg, tt.line, tt.msg)
		}
	}
}

// Values nested deeper than a rule file needs are refused, with their line.
func TestTOMLDeepNestingIsRefused(t *testing.T) {
	src := "a = " + strings.Repeat("[", 40) + strings.Repeat("]", 40)
	if _, err := parseTOML([]byte(src)); err == nil {
		t.Fatal("40 nested arrays read without an error")
	}
}
