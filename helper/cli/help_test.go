package cli

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

var placeholderPattern = regexp.MustCompile("`<[a-z][a-z -]*>`")

// Every verb's usage line is whole: it starts with the verb's full name, has no "[command
// options]", and names every flag the verb shows; every flag that takes a value shows a <value>
// placeholder, which cannot be read as the flag's default.
func TestUsageLinesAndPlaceholders(t *testing.T) {
	app := NewApp(&Factory{Getenv: os.Getenv})
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Hidden || c.Name == "help" {
				continue
			}
			full := prefix + " " + c.Name
			if !strings.HasPrefix(c.UsageText, full) || strings.Contains(c.UsageText, "[command options]") {
				t.Errorf("%s: usage line %q", full, c.UsageText)
			}
			if len(c.Subcommands) > 0 {
				walk(full, c.Subcommands)
				continue
			}
			for _, fl := range c.VisibleFlags() {
				name := fl.Names()[0]
				if name == "help" {
					continue
				}
				if !strings.Contains(c.UsageText, "--"+name) {
					t.Errorf("%s: usage line %q does not name --%s", full, c.UsageText, name)
				}
				if df, ok := fl.(cli.DocGenerationFlag); ok && df.TakesValue() && !placeholderPattern.MatchString(df.GetUsage()) {
					t.Errorf("%s --%s: usage %q has no `<placeholder>`", full, name, df.GetUsage())
				}
			}
		}
	}
	walk("taw", app.Commands)
}
