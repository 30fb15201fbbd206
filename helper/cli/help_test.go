package cli

import (
	"bytes"
	"context"
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

// A call of one verb builds no usage lines, so every way of asking for help must still get the
// verb's whole line.
func TestHelpOfOneVerbHasItsUsageLine(t *testing.T) {
	cases := [][2]string{
		{"pane report-agent --help", "taw pane report-agent <pane> --source <name>"},
		{"pane release-agent -h", "taw pane release-agent <pane> --source <name> --agent <name> [--seq <n>]"},
		{"pane get --help=true", "taw pane get <pane> [--json]"},
		{"-h pane get", "taw pane {report-agent|"},
		{"version -help", "taw version"},
	}
	for _, c := range cases {
		args, want := c[0], c[1]
		var out bytes.Buffer
		f := &Factory{Args: append([]string{"taw"}, strings.Fields(args)...), IO: IO{Out: &out, ErrOut: &out}, Getenv: os.Getenv}
		app := NewApp(f)
		_ = app.RunContext(context.Background(), intersperse(app, f.Args))
		if !strings.Contains(out.String(), want) {
			t.Errorf("taw %s printed %q, want it to hold %q", args, out.String(), want)
		}
	}
	if helpMayShow(invokedCommandsOf(t, "taw pane report-agent %1 --source s --agent a --state idle -- claude -h")) {
		t.Error("a report's call builds the usage lines")
	}
}

func invokedCommandsOf(t *testing.T, line string) ([]*cli.Command, []string, int) {
	t.Helper()
	args := strings.Fields(line)
	cmds, at := invokedCommands(NewApp(&Factory{Args: []string{"taw"}, Getenv: os.Getenv}), args)
	return cmds, args, at
}
