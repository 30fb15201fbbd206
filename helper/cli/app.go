package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
)

// Version is set at build time (-ldflags -X).
var Version = "dev"

// Main runs taw with the factory's arguments and returns its exit code.
func Main(f *Factory) int {
	ctx, stop := interruptible()
	defer stop()
	if hookReportFast(ctx, f) {
		return ExitOK
	}
	app := NewApp(f)
	err := app.RunContext(ctx, intersperse(app, f.Args))
	if err == nil {
		return ExitOK
	}
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return ExitInterrupted
	}
	e := AsError(err)
	writeError(f.IO.ErrOut, e)
	return e.Exit
}

// NewApp lists taw's verbs; each lives in its own verb_*.go file.
func NewApp(f *Factory) *cli.App {
	app := &cli.App{
		Name:            "taw",
		Usage:           "make tmux agent-aware",
		Version:         Version,
		Writer:          f.IO.Out,
		ErrWriter:       f.IO.ErrOut,
		HideHelpCommand: true,
		ExitErrHandler:  func(*cli.Context, error) {}, // exit codes are mapped in Main only
		OnUsageError:    onUsageError,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "L", Usage: "talk to the tmux server on socket `<name>` (as tmux -L)"},
			&cli.StringFlag{Name: "S", Usage: "talk to the tmux server on socket `<path>` (as tmux -S)"},
		},
		Before: func(c *cli.Context) error {
			if c.String("L") != "" && c.String("S") != "" {
				return UsageErrorf("-L and -S both name a server: give one")
			}
			if v := c.String("L"); v != "" {
				f.TmuxGlobal = []string{"-L", v}
			}
			if v := c.String("S"); v != "" {
				f.TmuxGlobal = []string{"-S", v}
			}
			return nil
		},
		// With no verb, the help; with one taw does not know, a usage error (urfave/cli would
		// print nothing and exit 0).
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cli.ShowAppHelp(c)
			}
			return UsageErrorf("unknown verb %q: run 'taw --help' for the list", c.Args().First())
		},
		Commands: []*cli.Command{
			newPaneCommand(f),
			newIntegrationCommand(f),
			newAgentCommand(f),
			newPopupCommand(f, nil),
			newSessionCommand(f),
			newWatchCommand(f, nil),
			newDetectCommand(f, nil),
			newHerdrSocketCommand(f),
			newHookCommand(f, nil),
			newConfigCommand(f),
			newNotifyCommand(f),
			newPluginCommand(f),
			newLoadCommand(f),
			newUnloadCommand(f),
			newMuxCommand(f),
			newVersionCommand(f),
		},
	}
	setUsageErrors(app.Commands)
	setUsageLines("taw", invokedCommands(app, f.Args))
	return app
}

// invokedCommands is the verb group a call names (taw pane ... → pane), or every group when it
// names none it knows. Usage lines are only read by help and usage errors, and building them for
// every verb is most of taw's set-up, so a call builds those of its own group only.
func invokedCommands(app *cli.App, args []string) []*cli.Command {
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if isFlag(a) {
			if takesValue(app.Flags, a) {
				i++
			}
			continue
		}
		if c := findCommand(app.Commands, a); c != nil {
			return []*cli.Command{c}
		}
		break
	}
	return app.Commands
}

// setUsageLines gives every verb a full usage line, "taw pane get <pane> [--json]" rather than
// urfave/cli's "taw pane get [command options]": the verb's ArgsUsage, with every visible flag
// it does not name already added as [--flag <value>] (before a trailing "-- <command>"). A group
// lists its verbs.
func setUsageLines(prefix string, cmds []*cli.Command) {
	for _, c := range cmds {
		full := prefix + " " + c.Name
		if len(c.Subcommands) > 0 {
			setUsageLines(full, c.Subcommands)
			if c.UsageText == "" {
				var verbs []string
				for _, sub := range c.Subcommands {
					if !sub.Hidden && sub.Name != "help" {
						verbs = append(verbs, sub.Name)
					}
				}
				c.UsageText = full + " {" + strings.Join(verbs, "|") + "} ..."
			}
			continue
		}
		if c.UsageText == "" {
			c.UsageText = usageLine(full, c)
		}
	}
}

func usageLine(full string, c *cli.Command) string {
	args := strings.TrimSpace(c.ArgsUsage)
	tail := ""
	for _, sep := range []string{" [-- ", " -- "} {
		if i := strings.Index(" "+args, sep); i >= 0 {
			args, tail = strings.TrimSpace(args[:max(i-1, 0)]), strings.TrimSpace(args[max(i-1, 0):])
			break
		}
	}
	var words []string
	if args != "" {
		words = append(words, args)
	}
	for _, fl := range c.VisibleFlags() {
		name := fl.Names()[0]
		if name == "help" || strings.Contains(" "+args+" ", "--"+name+" ") || strings.Contains(args, "--"+name+"]") || strings.Contains(args, "--"+name+"=") {
			continue
		}
		word := "--" + name
		if df, ok := fl.(cli.DocGenerationFlag); ok && df.TakesValue() {
			placeholder := "<value>"
			if _, rest, ok := strings.Cut(df.GetUsage(), "`"); ok {
				if p, _, ok := strings.Cut(rest, "`"); ok {
					placeholder = p
				}
			}
			word += " " + placeholder
		}
		words = append(words, "["+word+"]")
	}
	if tail != "" {
		words = append(words, tail)
	}
	if len(words) == 0 {
		return full
	}
	return full + " " + strings.Join(words, " ")
}

func onUsageError(c *cli.Context, err error, isSubcommand bool) error {
	// The verb's own name is not its full name while its flags are parsed: climb the lineage.
	var path []string
	for _, cc := range c.Lineage() {
		if cc.Command != nil && cc.Command.Name != "" && (len(path) == 0 || path[0] != cc.Command.Name) {
			path = append([]string{cc.Command.Name}, path...)
		}
	}
	// A value urfave/cli could not read for its flag's type is a bad value, not a malformed call.
	if strings.HasPrefix(err.Error(), "invalid value ") {
		return InvalidValuef("%s: run '%s --help' for the usage", err, strings.Join(path, " "))
	}
	return UsageErrorf("%s: run '%s --help' for the usage", err, strings.Join(path, " "))
}

func setUsageErrors(cmds []*cli.Command) {
	for _, c := range cmds {
		if c.OnUsageError == nil {
			c.OnUsageError = onUsageError
		}
		if len(c.Subcommands) > 0 {
			setUsageErrors(c.Subcommands)
			if c.Action == nil {
				c.Action = groupAction
			}
		}
	}
}

// groupAction answers a group (taw pane) called with no verb or an unknown one.
func groupAction(c *cli.Context) error {
	if c.NArg() == 0 {
		_ = cli.ShowSubcommandHelp(c)
		return UsageErrorf("%s needs a verb: run 'taw %s --help' for the list", c.Command.FullName(), c.Command.FullName())
	}
	return UsageErrorf("unknown verb %q for %s: run 'taw %s --help' for the list", c.Args().First(), c.Command.FullName(), c.Command.FullName())
}

func newVersionCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print taw's version",
		Action: func(c *cli.Context) error {
			_, err := fmt.Fprintln(f.IO.Out, Version)
			return err
		},
	}
}

func newPaneCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "pane",
		Usage: "report and read one pane's agent",
		Subcommands: []*cli.Command{
			newReportAgentCommand(f, nil),
			newReportAgentSessionCommand(f, nil),
			newReleaseAgentCommand(f, nil),
			newPaneGetCommand(f, nil),
			newPaneExplainCommand(f, nil),
			newPaneListCommand(f, nil),
		},
	}
}

// writeJSONLine prints v as one line of JSON.
func writeJSONLine(w io.Writer, v any) error {
	b, err := marshalJSON(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
