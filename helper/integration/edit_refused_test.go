package integration

import (
	"errors"
	"strings"
	"testing"
)

// Documents taw will not edit are refused with a reason naming the line, and never changed.
func TestEditsRefuseWhatTheyCannotEditSafely(t *testing.T) {
	hooks := func(b []byte) ([]byte, error) { return AddHooks(b, []string{"Stop"}, command, ours, true, 0) }
	feature := func(b []byte) ([]byte, error) { out, _, err := EnableTOMLFeature(b, "hooks"); return out, err }
	plugin := func(b []byte) ([]byte, error) { return EnableYAMLPlugin(b, "taw-agent-state") }
	cases := []struct {
		name string
		edit func([]byte) ([]byte, error)
		doc  string
		want string
	}{
		{"json key twice", hooks, "{\n  \"hooks\": {},\n  \"hooks\": {}\n}\n", `line 3: key "hooks" is written twice (first on line 2)`},
		{"json not an object", hooks, "[1]\n", "the top level is not an object"},
		{"json broken", hooks, "{\n  \"a\": ,\n}\n", "line 2"},
		{"toml key twice", feature, "[features]\nweb = true\nweb = false\n", "line 3"},
		{"toml inline features", feature, "features = { web = true }\n", "written inline"},
		{"toml dotted features", feature, "features.web = true\n", "written inline or as dotted keys"},
		{"toml features not a table", feature, "features = 1\n", "features is not a table"},
		{"yaml flow plugins", plugin, "plugins: {enabled: [a]}\n", "plugins is written inline"},
		{"yaml flow list", plugin, "plugins:\n  enabled: [a, b]\n", "plugins.enabled is written inline"},
		{"yaml tab", plugin, "plugins:\n\tenabled:\n", "line 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := c.edit([]byte(c.doc))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("edit gave %q, %v; want a ParseError", out, err)
			}
			if !strings.Contains(pe.Msg, c.want) {
				t.Errorf("error %q does not say %q", pe.Msg, c.want)
			}
		})
	}
}

// What the readers find is what the agents' own parsers find: a "[features]" inside a
// multi-line string is text, and a same-named item of another list is not taw's.
func TestEditsReadLikeTheAgents(t *testing.T) {
	doc := "x = '''\n[features]\n'''\n"
	out, _, err := EnableTOMLFeature([]byte(doc), "hooks")
	if err != nil || !strings.HasPrefix(string(out), doc) || !strings.Contains(string(out), "\n[features] "+tawMark+"\nhooks = true") {
		t.Fatalf("EnableTOMLFeature = %q, %v", out, err)
	}
	y := "plugins:\n  disabled:\n    - taw-agent-state\n  enabled:\n    - a\n"
	added, err := EnableYAMLPlugin([]byte(y), "taw-agent-state")
	if err != nil || !strings.Contains(string(added), "    - a\n    - taw-agent-state\n") {
		t.Fatalf("EnableYAMLPlugin = %q, %v", added, err)
	}
	removed, _ := DisableYAMLPlugin(added, "taw-agent-state")
	if string(removed) != y {
		t.Errorf("DisableYAMLPlugin = %q, want %q", removed, y)
	}
}
