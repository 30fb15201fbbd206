package plugins

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseManifest(t *testing.T) {
	good := `id = "notes"
name = "Notes"
version = "1.0.0"
[[actions]]
id = "add"
command = ["./add.sh", "x"]
key = "M-n"
[[events]]
on = "pane.agent_status_changed"
command = ["./ev"]
[[popups]]
id = "p"
command = ["sh"]
width = "50%"
`
	m, problems := ParseManifest("m.toml", []byte(good))
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	if m.Events[0].On != "state_changed" {
		t.Errorf("herdr's event name not mapped: %q", m.Events[0].On)
	}
	tests := []struct {
		name, file, want string
	}{
		{"no id", "name = \"a\"\nversion = \"1\"\n", "m.toml: no id"},
		{"bad id", "id = \"a b\"\nname = \"a\"\nversion = \"1\"\n", "m.toml:1: bad id \"a b\""},
		{"no version", "id = \"a\"\nname = \"a\"\n", "no version"},
		{"dotted action id", "id = \"a\"\nname = \"a\"\nversion = \"1\"\n[[actions]]\nid = \"x.y\"\ncommand = [\"x\"]\n", "m.toml:5: bad actions id \"x.y\""},
		{"duplicate action", "id = \"a\"\nname = \"a\"\nversion = \"1\"\n[[actions]]\nid = \"x\"\ncommand = [\"x\"]\n[[actions]]\nid = \"x\"\ncommand = [\"x\"]\n", "m.toml:8: two actions have the id \"x\""},
		{"no command", "id = \"a\"\nname = \"a\"\nversion = \"1\"\n[[startup]]\n", "m.toml:4: startup 1 has no command"},
		{"bad size", "id = \"a\"\nname = \"a\"\nversion = \"1\"\n[[panes]]\nid = \"p\"\ncommand = [\"x\"]\nsize = \"big\"\n", "m.toml:7: bad size \"big\""},
		{"bad key", "id = \"a\"\nname = \"a\"\nversion = \"1\"\n[[actions]]\nid = \"x\"\ncommand = [\"x\"]\nkey = \"C-a b\"\n", "m.toml:7: bad key"},
		{"unknown key", "id = \"a\"\nname = \"a\"\nversion = \"1\"\nhomepage = \"x\"\n", "m.toml:4: unknown key homepage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, problems := ParseManifest("m.toml", []byte(tt.file))
			var all []string
			for _, p := range problems {
				all = append(all, p.Error())
			}
			if !strings.Contains(strings.Join(all, "\n"), tt.want) {
				t.Errorf("problems %q, want one containing %q", all, tt.want)
			}
		})
	}
}

func TestRegistryRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "taw", "plugins.json")
	r, err := ReadRegistry(path)
	if err != nil || len(r.Plugins) != 0 {
		t.Fatalf("missing registry: %+v %v", r, err)
	}
	r.Plugins = []Entry{{ID: "b", Path: "/b", Enabled: true}, {ID: "a", Path: "/a"}}
	if err := WriteRegistry(path, r); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRegistry(path)
	if err != nil {
		t.Fatal(err)
	}
	want := Registry{Version: 1, Plugins: []Entry{{ID: "a", Path: "/a"}, {ID: "b", Path: "/b", Enabled: true}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("registry = %+v, want %+v", got, want)
	}
	// Nothing but the registry is left in its folder.
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("folder holds %d files, want only the registry", len(entries))
	}
	os.WriteFile(path, []byte("{"), 0o644)
	if _, err := ReadRegistry(path); err == nil || !strings.Contains(err.Error(), "is not a plugin registry") {
		t.Errorf("broken registry: %v", err)
	}
}

func TestResolve(t *testing.T) {
	for _, tt := range []struct{ in, want []string }{
		{[]string{"./run.sh", "a"}, []string{"/p/run.sh", "a"}},
		{[]string{"bin/run"}, []string{"/p/bin/run"}},
		{[]string{"sh", "./x"}, []string{"sh", "./x"}},
		{[]string{"/abs/run"}, []string{"/abs/run"}},
	} {
		if got := Resolve("/p", tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Resolve(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// FuzzParseManifest: no manifest makes the reader panic.
func FuzzParseManifest(f *testing.F) {
	f.Add("id = \"a\"\nname = \"a\"\nversion = \"1\"\n[[actions]]\nid = \"x\"\ncommand = [\"x\"]\n[[panes]]\nid = \"p\"\n")
	f.Add("[[events]]\non = 3\n[[popups]]\nwidth = \"x\"\n")
	f.Fuzz(func(t *testing.T, file string) {
		ParseManifest("m.toml", []byte(file))
	})
}

func TestSummaryNamesEntriesAsTheVerbsTakeThem(t *testing.T) {
	p := Plugin{Entry: Entry{ID: "my.notes", Path: "/p", Enabled: true}, Manifest: Manifest{Name: "Notes", Version: "1", Actions: []Action{{ID: "open"}}}}
	s := Summarize(p)
	if len(s.Actions) != 1 || s.Actions[0] != "my.notes.open" || len(s.Panes) != 0 || s.Panes == nil || s.State() != "enabled" {
		t.Fatalf("Summarize = %+v, state %s", s, s.State())
	}
	plugin, entry, ok := SplitQualified(s.Actions[0])
	if !ok || plugin != "my.notes" || entry != "open" {
		t.Errorf("SplitQualified(%q) = %q %q %v", s.Actions[0], plugin, entry, ok)
	}
	for _, bad := range []string{"notes", ".open", "notes."} {
		if _, _, ok := SplitQualified(bad); ok {
			t.Errorf("SplitQualified(%q) took it", bad)
		}
	}
	p.Problems = []error{errors.New("bad")}
	if s := Summarize(p); s.State() != "broken" || s.Problems[0] != "bad" {
		t.Errorf("with a problem: %+v", s)
	}
}
