package integration

import (
	"errors"
	"strings"
	"testing"
)

func command(ev string) string { return "sh '/h/.x/taw-agent-state.sh' " + ev }

// Each config edit, run on a document, changes nothing when run again, and its removal gives the
// document back byte for byte.
func TestEditsRoundTrip(t *testing.T) {
	json := func(grouped bool) (func([]byte) ([]byte, error), func([]byte) ([]byte, error)) {
		return func(b []byte) ([]byte, error) {
				return AddHooks(b, []string{"Stop", "SessionStart"}, command, ours, grouped, 10)
			}, func(b []byte) ([]byte, error) {
				return RemoveHooks(b, ours, grouped)
			}
	}
	gAdd, gRemove := json(true)
	fAdd, fRemove := json(false)
	tomlAdd := func(b []byte) ([]byte, error) { out, _, err := EnableTOMLFeature(b, "codex_hooks"); return out, err }
	kimiAdd := func(b []byte) ([]byte, error) {
		return SetTOMLBlock(b, []KimiHook{{Event: "Stop", Command: command("Stop"), Timeout: 10}})
	}
	yamlAdd := func(b []byte) ([]byte, error) { return EnableYAMLPlugin(b, "taw-agent-state") }
	yamlRemove := func(b []byte) ([]byte, error) { return DisableYAMLPlugin(b, "taw-agent-state") }
	cases := []struct {
		name        string
		add, remove func([]byte) ([]byte, error)
		doc         string
		want        []string // substrings of the added document
	}{
		{"grouped, empty object", gAdd, gRemove, "{}\n", []string{`"Stop": [`}},
		{"grouped, comments and a trailing comma", gAdd, gRemove, "{\n  // c\n  \"a\": 1, /* b */\n  \"hooks\": {\n    \"Stop\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"other\"}]},\n    ],\n  },\n}\n", []string{"// c", "/* b */", `"command": "other"`, "taw-agent-state.sh' Stop"}},
		// A one-line document keeps its line; the new members follow it. (An event list that was
		// empty before taw's entry went in would go with it: an emptied list is taken out.)
		{"grouped, one line", gAdd, gRemove, `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}`, []string{"taw-agent-state.sh' SessionStart"}},
		{"grouped, tabs", gAdd, gRemove, "{\n\t\"model\": \"x\"\n}\n", []string{"\n\t\"hooks\": {\n\t\t\"Stop\": ["}},
		{"grouped, another tool in taw's group", gAdd, gRemove, `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}`, nil},
		{"flat", fAdd, fRemove, "{\n  \"version\": 1,\n  \"hooks\": {\"stop\": [{\"command\": \"./a.sh\"}]}\n}\n", []string{`"command": "sh '/h/.x/taw-agent-state.sh' Stop"`, `"command": "./a.sh"`}},
		{"toml, features table", tomlAdd, RemoveTaggedLines, "model = \"x\"\n\n[features]\nweb = true\n", []string{"[features]\ncodex_hooks = true " + tawMark + "\nweb = true"}},
		{"toml, no features table", tomlAdd, RemoveTaggedLines, "model = \"x\"\n", []string{"\n\n[features] " + tawMark}},
		{"toml, no trailing newline", tomlAdd, RemoveTaggedLines, "model = \"x\"\n\n[a]\nb = 1\n", nil},
		{"toml, empty", tomlAdd, RemoveTaggedLines, "", []string{"codex_hooks = true"}},
		{"kimi block", kimiAdd, RemoveTOMLBlock, "x = 1\n\n[[hooks]]\nevent = \"Stop\"\ncommand = \"other\"\n", []string{blockBegin, `event = "Stop"`, blockEnd}},
		{"yaml, list", yamlAdd, yamlRemove, "plugins:\n  enabled:\n    - a\n    - b\nother: 1\n", []string{"    - b\n    - taw-agent-state\nother"}},
		{"yaml, no enabled", yamlAdd, yamlRemove, "plugins:\n  disabled:\n    - c\n", []string{"plugins:\n  enabled: " + tawMark + "\n    - taw-agent-state\n  disabled:"}},
		{"yaml, no plugins", yamlAdd, yamlRemove, "model: x\n", []string{"plugins: " + tawMark}},
		{"yaml, empty", yamlAdd, yamlRemove, "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			added, err := c.add([]byte(c.doc))
			if err != nil {
				t.Fatalf("add: %v", err)
			}
			for _, w := range c.want {
				if !strings.Contains(string(added), w) {
					t.Errorf("added document lacks %q:\n%s", w, added)
				}
			}
			again, err := c.add(added)
			if err != nil || string(again) != string(added) {
				t.Errorf("second add changed the document (err %v):\n%s", err, again)
			}
			removed, err := c.remove(added)
			if err != nil {
				t.Fatalf("remove: %v", err)
			}
			want := c.doc
			if strings.TrimSpace(want) == "" && strings.HasPrefix(c.name, "grouped") {
				want = "{}\n"
			}
			if string(removed) != want {
				t.Errorf("remove gave\n%q\nwant\n%q", removed, want)
			}
		})
	}
}

// A config taw cannot read is an error, never an edit.
func TestEditsRefuse(t *testing.T) {
	cases := []struct {
		name string
		edit func([]byte) ([]byte, error)
		doc  string
	}{
		{"json garbage", func(b []byte) ([]byte, error) { return AddHooks(b, []string{"Stop"}, command, ours, true, 0) }, "{ nope }"},
		{"json array root", func(b []byte) ([]byte, error) { return AddHooks(b, []string{"Stop"}, command, ours, true, 0) }, "[]"},
		{"json hooks not object", func(b []byte) ([]byte, error) { return AddHooks(b, []string{"Stop"}, command, ours, true, 0) }, `{"hooks": []}`},
		{"json event not list", func(b []byte) ([]byte, error) { return AddHooks(b, []string{"Stop"}, command, ours, true, 0) }, `{"hooks": {"Stop": {}}}`},
		{"json unterminated comment", func(b []byte) ([]byte, error) { return RemoveHooks(b, ours, true) }, "{ /* }"},
		{"toml garbage", func(b []byte) ([]byte, error) { out, _, err := EnableTOMLFeature(b, "k"); return out, err }, "not toml\n"},
		{"toml unclosed array", func(b []byte) ([]byte, error) { return SetTOMLBlock(b, nil) }, "a = [\n1,\n"},
		{"yaml flow list", func(b []byte) ([]byte, error) { return EnableYAMLPlugin(b, "p") }, "plugins:\n  enabled: [a]\n"},
		{"yaml tab", func(b []byte) ([]byte, error) { return EnableYAMLPlugin(b, "p") }, "plugins:\n\tenabled:\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.edit([]byte(c.doc))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a ParseError", err)
			}
		})
	}
}

// The TOML feature edit leaves a value the user set, and says when it is not true.
func TestEnableTOMLFeatureKeepsUserValue(t *testing.T) {
	for _, doc := range []string{"[features]\ncodex_hooks = false\n", "features.codex_hooks = false\n"} {
		out, other, err := EnableTOMLFeature([]byte(doc), "codex_hooks")
		if err != nil || !other || string(out) != doc {
			t.Errorf("%q: got %q, %v, %v", doc, out, other, err)
		}
	}
	out, other, _ := EnableTOMLFeature([]byte("[features]\ncodex_hooks = true\n"), "codex_hooks")
	if other || string(out) != "[features]\ncodex_hooks = true\n" {
		t.Errorf("true: got %q, %v", out, other)
	}
}

// An entry someone else put taw's command into keeps their command when taw's goes.
func TestRemoveHooksSharedEntry(t *testing.T) {
	doc := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "other"}, {"type": "command", "command": "sh '/h/.x/taw-agent-state.sh' Stop"}]}]}}`
	want := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "other"}]}]}}`
	got, err := RemoveHooks([]byte(doc), ours, true)
	if err != nil || string(got) != want {
		t.Fatalf("got %s, %v\nwant %s", got, err, want)
	}
	again, err := AddHooks([]byte(doc), []string{"Stop"}, command, ours, true, 0)
	if err != nil || string(again) != doc {
		t.Fatalf("add over an entry holding taw's command changed it: %s, %v", again, err)
	}
}

// An entry of an older install that runs the script from elsewhere is replaced, not kept.
func TestAddHooksReplacesStale(t *testing.T) {
	doc := "{\n  \"hooks\": {\n    \"Stop\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"other\"}]},\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"sh '/old/taw-agent-state.sh' Stop\"}]}\n    ]\n  }\n}\n"
	got, err := AddHooks([]byte(doc), []string{"Stop"}, command, ours, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), "/old/") || !strings.Contains(string(got), command("Stop")) || !strings.Contains(string(got), `"other"`) {
		t.Fatalf("got:\n%s", got)
	}
}
