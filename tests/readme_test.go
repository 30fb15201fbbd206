package tests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/cli"
	"github.com/taw-tmux/taw/helper/tmuxconf"
	ucli "github.com/urfave/cli/v2"
)

// TestReadmeDocumentsEverything keeps the README honest: every verb, every flag of every verb and
// every @agent-wizard-… setting taw has appears in it.
func TestReadmeDocumentsEverything(t *testing.T) {
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	for _, s := range tmuxconf.Catalogue {
		if !strings.Contains(readme, s.Name) {
			t.Errorf("README.md does not document the setting %s", s.Name)
		}
	}
	app := cli.NewApp(&cli.Factory{Getenv: os.Getenv})
	var walk func(prefix string, cmds []*ucli.Command)
	walk = func(prefix string, cmds []*ucli.Command) {
		for _, c := range cmds {
			if c.Hidden || c.Name == "help" {
				continue
			}
			full := prefix + " " + c.Name
			if len(c.Subcommands) > 0 {
				walk(full, c.Subcommands)
				continue
			}
			if !strings.Contains(readme, full) {
				t.Errorf("README.md does not document the verb %q", full)
			}
			for _, f := range c.Flags {
				name := f.Names()[0]
				if name == "help" {
					continue
				}
				dash := "--" + name
				if len(name) == 1 {
					dash = "-" + name
				}
				if !strings.Contains(readme, dash) {
					t.Errorf("README.md does not document %s of %q", dash, full)
				}
			}
		}
	}
	walk("taw", app.Commands)
}
