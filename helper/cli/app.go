package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/report"
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
	e := AsError(helpTopicError(err, f.Args))
	if e.Code == coded.Usage && !strings.Contains(e.Message, "--help") {
		e.Message += fmt.Sprintf(": run '%s --help' for the usage", calledVerb(app, f.Args))
	}
	writeError(f.IO.ErrOut, e)
	return e.Exit
}

// helpTopicError is a usage error for urfave/cli's answer to `taw <group> help <word>` naming no
// verb of the group (its own error has no code, and would read as a bug in taw).
func helpTopicError(err error, args []string) error {
	var exit cli.ExitCoder
	if !errors.As(err, &exit) || !strings.HasPrefix(err.Error(), "No help topic for ") {
		return err
	}
	var path []string
	for i := 1; i < len(args); i++ {
		switch a := args[i]; {
		case a == "help":
			i = len(args)
		case a == "-L" || a == "-S":
			i++ // the server's name or path
		case !strings.HasPrefix(a, "-"):
			path = append(path, a)
		}
	}
	group := strings.Join(append([]string{"taw"}, path...), " ")
	return UsageErrorf("no help topic %s for %s: run '%s --help' for the list", strings.TrimPrefix(err.Error(), "No help topic for "), group, group)
}

// calledVerb is the verb a call names, as far as taw knows it ("taw agent read"): where a usage
// error sends the person for help.
func calledVerb(app *cli.App, args []string) string {
	path, cmds, flags := []string{"taw"}, app.Commands, app.Flags
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if isFlag(a) {
			if takesValue(flags, a) {
				i++
			}
			continue
		}
		c := findCommand(cmds, a)
		if c == nil {
			break
		}
		path = append(path, c.Name)
		if len(c.Subcommands) == 0 {
			break
		}
		cmds, flags = c.Subcommands, c.Flags
	}
	return strings.Join(path, " ")
}

// NewApp lists taw's verbs and verb groups; each verb's parsing and run live in its own
// verb_*.go file.
func NewApp(f *Factory) *cli.App {
	// taw --version prints what taw version does: the version alone.
	cli.VersionPrinter = func(c *cli.Context) { fmt.Fprintln(c.App.Writer, c.App.Version) }
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
			newWaitCommand(f),
			newWorkspaceCommand(f),
			newTabCommand(f),
			newWorktreeCommand(f),
			newNotificationCommand(f),
			eventsVerb(f),
			mcpVerb(f),
			newIntegrationCommand(f),
			newAgentCommand(f),
			verb("popup", "[--open] [--client <name>]", "the agents popup: every agent, most urgent first; Enter goes to it",
				noArgs(f.popup), &cli.BoolFlag{Name: flagOpen, Usage: "open it in a tmux popup on the client (what the popup key runs)"}, clientFlag()),
			newSessionCommand(f),
			verb("watch", "[--once] [--interval <duration>] [--json]", "run the pane watcher in the foreground (the plugin runs one per server in the background)",
				noArgs(f.watch), watchFlags()...),
			newDetectCommand(f),
			hidden(verb("herdr-socket", "--socket <path>", "serve herdr's socket protocol for this tmux server (the plugin runs it when @agent-wizard-herdr-socket is on)",
				f.herdrSocket, herdrSocketFlags()...)),
			newHookCommand(f),
			newConfigCommand(f),
			newNotifyCommand(f),
			newPluginCommand(f),
			verb("load", " ", "load the plugin into the running tmux server (taw.tmux runs this)", noArgs(f.load), loadFlags()...),
			verb("unload", " ", "remove everything the plugin added to the running tmux server", noArgs(f.unload)),
			verb("status", "[--json]", "say whether taw is loaded and what its last load had to say (bad settings, keys left alone, a build)",
				noArgs(f.status), jsonFlag()),
			newMuxCommand(f),
			verb("version", "", "print taw's version", noArgs(f.version)),
		},
	}
	setUsageErrors(app.Commands)
	if cmds, at := invokedCommands(app, f.Args); helpMayShow(cmds, f.Args, at) {
		setUsageLines("taw", cmds)
		setHelpTails("", cmds)
	}
	return app
}

// invokedCommands is the verb group a call names (taw pane ... → pane) and where in args it
// does, or every group (at -1) when it names none it knows. Usage lines are only read by help,
// and building them for every verb is most of taw's set-up, so a call builds those of its own
// group only.
func invokedCommands(app *cli.App, args []string) (cmds []*cli.Command, at int) {
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
			return []*cli.Command{c}, i
		}
		break
	}
	return app.Commands, -1
}

// helpMayShow says whether a call can print help, and so needs usage lines: every call but one
// of a single verb (taw pane report-agent ..., taw version) with no argument that could ask for
// help (the word help, or a flag -h, --help, -help=...). cmds and at are invokedCommands'.
func helpMayShow(cmds []*cli.Command, args []string, at int) bool {
	if at < 0 || len(cmds) != 1 {
		return true
	}
	verb := cmds[0]
	if len(verb.Subcommands) > 0 {
		if at+1 >= len(args) {
			return true
		}
		if verb = findCommand(verb.Subcommands, args[at+1]); verb == nil || len(verb.Subcommands) > 0 {
			return true
		}
	}
	for _, a := range args[1:] {
		if a == "--" {
			break
		}
		if a == "help" || (isFlag(a) && strings.HasPrefix(strings.TrimLeft(a, "-"), "h")) {
			return true
		}
	}
	return false
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
	path := strings.Fields(verbName(c))
	// A value urfave/cli could not read for its flag's type is a bad value, not a malformed call.
	if strings.HasPrefix(err.Error(), "invalid value ") {
		return InvalidValuef("%s: run '%s --help' for the usage", flagValueMessage(err.Error()), strings.Join(path, " "))
	}
	return UsageErrorf("%s: run '%s --help' for the usage", err, strings.Join(path, " "))
}

// verbName is the verb's whole name, "agent list" (a verb's own name is only its last word, and
// c.Command.FullName is not set yet while its flags are parsed): climb the lineage.
func verbName(c *cli.Context) string {
	var path []string
	for _, cc := range c.Lineage() {
		if cc.Command != nil && cc.Command.Name != "" && (len(path) == 0 || path[0] != cc.Command.Name) {
			path = append([]string{cc.Command.Name}, path...)
		}
	}
	return strings.Join(path, " ")
}

// flagValueMessage rewrites the flag library's `invalid value "x" for flag -n: parse error` as
// `invalid --n "x": not a whole number`, in the words of taw's own checks.
func flagValueMessage(msg string) string {
	rest := strings.TrimPrefix(msg, "invalid value ")
	value, rest, ok := strings.Cut(rest, " for flag -")
	if !ok {
		return msg
	}
	name, why, _ := strings.Cut(rest, ": ")
	switch {
	case strings.Contains(why, "out of range"):
		why = "the number is out of range"
	case strings.Contains(why, "parse error"), strings.Contains(why, "invalid syntax"):
		why = "not a whole number"
	}
	return fmt.Sprintf("invalid --%s %s: %s", strings.TrimLeft(name, "-"), value, why)
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
		var verbs []string
		for _, sub := range c.Command.Subcommands {
			if !sub.Hidden && sub.Name != "help" {
				verbs = append(verbs, sub.Name)
			}
		}
		return UsageErrorf("%s needs a verb (%s): run 'taw %s --help' for what each does", c.Command.FullName(), strings.Join(verbs, ", "), c.Command.FullName())
	}
	return UsageErrorf("unknown verb %q for %s: run 'taw %s --help' for the list", c.Args().First(), c.Command.FullName(), c.Command.FullName())
}

func (f *Factory) version(*cli.Context) error {
	_, err := fmt.Fprintln(f.IO.Out, Version)
	return err
}

func newPaneCommand(f *Factory) *cli.Command {
	pane := group("pane", "report and read one pane's agent; split, type into, read and close panes",
		reportVerb(f, report.ReportAgent, "report-agent", "<pane> --source <name> --agent <name> --state {idle|working|blocked|unknown} [--seq <n>] [--message <text>] [--agent-session-id <id>] [--agent-session-path <path>] [-- <resume command>...]",
			"report an agent's state (and optionally its session and resume command)"),
		reportVerb(f, report.ReportSession, "report-agent-session", "<pane> --source <name> --agent <name> [--seq <n>] [--agent-session-id <id>] [--agent-session-path <path>] [--session-start-source <why>] [-- <resume command>...]",
			"report only an agent's session and resume command"),
		reportVerb(f, report.ReleaseAgent, "release-agent", "<pane> --source <name> --agent <name> [--seq <n>]",
			"hand the pane back to taw when the user quits the agent"),
		verb("get", "<pane> [--json]", "print one pane and its agent (JSON when piped or with --json)",
			oneArg("pane get takes one pane: taw pane get <pane>", f.paneGet), jsonFlag()),
		verb("explain", "<pane> [--json]", "say which signal decided a pane's agent and state, and why",
			oneArg("pane explain takes one pane: taw pane explain <pane> [--json]", f.paneExplain), jsonObjectFlag()),
		verb("list", "[--session <name>] [--json]", "list every pane of the server and its agent (JSON when piped or with --json)",
			noArgs(f.paneList), &cli.StringFlag{Name: flagSession, Usage: "list only the panes of session `<name>`"}, jsonFlag()),
	)
	pane.Subcommands = append(pane.Subcommands, paneControlVerbs(f)...)
	return pane
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
