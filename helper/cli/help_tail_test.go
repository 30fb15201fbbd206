package cli

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// Every verb help lists ends its help with an example and the page of the documentation, and
// no switch says "(default: false)".
func TestHelpEndsWithAnExampleAndItsPage(t *testing.T) {
	var verbs []string
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Hidden || c.Name == "help" {
				continue
			}
			if len(c.Subcommands) > 0 {
				walk(prefix+c.Name+" ", c.Subcommands)
				continue
			}
			verbs = append(verbs, prefix+c.Name)
		}
	}
	walk("", NewApp(&Factory{Args: []string{"taw"}, Getenv: os.Getenv}).Commands)
	for _, v := range verbs {
		var out bytes.Buffer
		f := &Factory{Args: append(append([]string{"taw"}, strings.Fields(v)...), "--help"), IO: IO{Out: &out, ErrOut: &out}, Getenv: os.Getenv}
		app := NewApp(f)
		_ = app.RunContext(context.Background(), intersperse(app, f.Args))
		help := out.String()
		ex, more := strings.Index(help, "EXAMPLE:\n   "), strings.Index(help, "MORE:\n   ")
		if ex < 0 || more < ex || !strings.Contains(help[more:], ".md") {
			t.Errorf("taw %s --help does not end with an example and its page:\n%s", v, help)
		}
		if strings.Contains(help, "(default: false)") {
			t.Errorf("taw %s --help says (default: false)", v)
		}
	}
}
