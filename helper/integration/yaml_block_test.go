package integration

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestBlockOf(t *testing.T) {
	// Each value of key k, and what blockOf says of it for a list: "empty", "" (a block list), or
	// the refusal's words.
	said := map[string]string{
		"k:\n":             "empty",
		"k: ~\n":           "empty",
		"k:\n  - a\n":      "",
		"k: [a]\n":         "line 1: k is written inline; write it as a block list",
		"k: a\n":           "line 1: k is not a list",
		"k:\n  a: b\n":     "line 2: k is not a list",
		"k: {a: b}\n":      "k is not a list",
		"k:\n  - [a, b]\n": "",
	}
	for doc, want := range said {
		var root yaml.Node
		if err := yaml.Unmarshal([]byte(doc), &root); err != nil {
			t.Fatal(err)
		}
		empty, err := blockOf(root.Content[0].Content[1], yaml.SequenceNode, "k", "a list", "a block list")
		got := ""
		switch {
		case err != nil:
			got = err.Error()
		case empty:
			got = "empty"
		}
		if want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("%q: blockOf says %q, want %q", doc, got, want)
		}
	}
}
