package tests

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/cli"
	"github.com/taw-tmux/taw/helper/tmuxconf"
	ucli "github.com/urfave/cli/v2"
)

// TestReadmeDocumentsEverything keeps the documentation honest: every verb, every flag of every
// verb and every @agent-wizard-… setting taw has appears in README.md or a page of docs/.
func TestReadmeDocumentsEverything(t *testing.T) {
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	readme := readDocs(t, root)
	for _, s := range tmuxconf.Catalogue {
		if !strings.Contains(readme, s.Name) {
			t.Errorf("the docs do not document the setting %s", s.Name)
		}
	}
	app := cli.NewApp(&cli.Factory{Getenv: os.Getenv})
	for _, v := range verbsOf("taw", app.Commands) {
		if !strings.Contains(readme, v.name) {
			t.Errorf("the docs do not document the verb %q", v.name)
		}
		for _, f := range v.cmd.Flags {
			name := f.Names()[0]
			if name == "help" {
				continue
			}
			dash := "--" + name
			if len(name) == 1 {
				dash = "-" + name
			}
			if !strings.Contains(readme, dash) {
				t.Errorf("the docs do not document %s of %q", dash, v.name)
			}
		}
	}
}

// verb is one verb a person runs, by its full name ("taw agent list").
type verb struct {
	name string
	cmd  *ucli.Command
}

// verbsOf are the verbs below prefix, in the app's order: the leaves, not the groups that hold
// them, and neither the hidden ones nor help.
func verbsOf(prefix string, cmds []*ucli.Command) []verb {
	var out []verb
	for _, c := range cmds {
		switch full := prefix + " " + c.Name; {
		case c.Hidden || c.Name == "help":
		case len(c.Subcommands) > 0:
			out = append(out, verbsOf(full, c.Subcommands)...)
		default:
			out = append(out, verb{full, c})
		}
	}
	return out
}

// readDocs returns README.md and every page of docs/ as one text.
func readDocs(t *testing.T, root string) string {
	t.Helper()
	files := []string{filepath.Join(root, "README.md")}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, f := range append(files, pages...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(data)
		all.WriteByte('\n')
	}
	return all.String()
}

// TestReadmeIsTheFrontDoor keeps README.md short and its links alive.
func TestReadmeIsTheFrontDoor(t *testing.T) {
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n > 300 {
		t.Errorf("README.md has %d lines; keep it at 300 or fewer and move detail to docs/", n)
	}
	for _, m := range docLink.FindAllStringSubmatch(string(data), -1) {
		if _, err := os.Stat(filepath.Join(root, m[1])); err != nil {
			t.Errorf("README.md links to %s, which does not exist", m[1])
		}
	}
}

var docLink = regexp.MustCompile(`\]\((docs/[^)#]+)`)

// TestReadmeOptionsTableIsTheCatalogue keeps the README's options table the settings catalogue's
// own words, row for row; TAW_UPDATE=1 writes it anew.
func TestReadmeOptionsTableIsTheCatalogue(t *testing.T) {
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const head = "| option | default | allowed | what it does |\n| --- | --- | --- | --- |\n"
	readme := string(data)
	start := strings.Index(readme, head)
	if start < 0 {
		t.Fatal("README.md has no options table")
	}
	end := start + len(head)
	for end < len(readme) && readme[end] == '|' {
		end += strings.IndexByte(readme[end:], '\n') + 1
	}
	var want strings.Builder
	want.WriteString(head)
	for _, s := range tmuxconf.Catalogue {
		def, allows := "(none)", "—"
		if s.Default != "" {
			def = s.Default
		}
		if s.Allows != "" {
			allows = s.Allows
		}
		fmt.Fprintf(&want, "| `%s` | `%s` | %s | %s |\n", s.Name, def, allows, s.Doc)
	}
	if readme[start:end] == want.String() {
		return
	}
	if os.Getenv("TAW_UPDATE") != "" {
		if err := os.WriteFile(path, []byte(readme[:start]+want.String()+readme[end:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's options table is not the settings catalogue (run with TAW_UPDATE=1 to write it):\n%s", want.String())
}
