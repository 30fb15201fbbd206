package cli

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// intersperse lets flags stand before or after a verb's positional arguments. urfave/cli v2 stops
// reading flags at the first positional argument, and herdr's verbs take their flags on either
// side of the pane, so the leaf verb's arguments are reordered: its flags first, then "--", then
// the positional arguments, then the caller's own "--" and what followed it. splitArgs undoes the
// last part.
func intersperse(app *cli.App, args []string) []string {
	if len(args) == 0 {
		return args
	}
	out := []string{args[0]}
	cmds, flags := app.Commands, app.Flags
	i := 1
	for i < len(args) {
		a := args[i]
		if a == "--" {
			break
		}
		if isFlag(a) {
			out = append(out, a)
			i++
			if takesValue(flags, a) && i < len(args) {
				out = append(out, args[i])
				i++
			}
			continue
		}
		c := findCommand(cmds, a)
		if c == nil {
			break
		}
		out = append(out, a)
		i++
		if len(c.Subcommands) > 0 {
			cmds, flags = c.Subcommands, c.Flags
			continue
		}
		return append(out, reorderLeaf(c.Flags, args[i:])...)
	}
	return append(out, args[i:]...)
}

func reorderLeaf(flags []cli.Flag, rest []string) []string {
	var named, positional, after []string
	dashDash := false
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		if a == "--" {
			dashDash, after = true, rest[j+1:]
			break
		}
		if isFlag(a) {
			named = append(named, a)
			if takesValue(flags, a) && j+1 < len(rest) {
				named = append(named, rest[j+1])
				j++
			}
			continue
		}
		positional = append(positional, a)
	}
	out := append(named, "--")
	out = append(out, positional...)
	if dashDash {
		out = append(out, "--")
		out = append(out, after...)
	}
	return out
}

// splitArgs separates a verb's positional arguments from what the caller put after "--".
func splitArgs(c *cli.Context) (positional, after []string, dashDash bool) {
	all := c.Args().Slice()
	for i, a := range all {
		if a == "--" {
			return all[:i], all[i+1:], true
		}
	}
	return all, nil, false
}

func isFlag(a string) bool { return len(a) > 1 && a[0] == '-' }

func takesValue(flags []cli.Flag, arg string) bool {
	if strings.Contains(arg, "=") {
		return false
	}
	name := strings.TrimLeft(arg, "-")
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				_, isBool := f.(*cli.BoolFlag)
				return !isBool
			}
		}
	}
	return false
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// noArgs is the action of a verb that takes no argument, neither before nor after "--": it refuses
// any (usage) before action runs, so a call with one too many changes nothing.
func noArgs(action cli.ActionFunc) cli.ActionFunc {
	return func(c *cli.Context) error {
		positional, after, dashDash := splitArgs(c)
		switch {
		case len(positional) > 0:
			return UsageErrorf("%s takes no arguments, got %q", verbName(c), positional[0])
		case dashDash || len(after) > 0:
			return UsageErrorf("%s takes nothing after --", verbName(c))
		}
		return action(c)
	}
}

// oneArg is the action of a verb that takes exactly one positional argument: it runs action
// with it, or gives the usage error msg. What follows "--" is the verb's own business.
func oneArg(msg string, action func(c *cli.Context, arg string) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		positional, _, _ := splitArgs(c)
		if len(positional) != 1 {
			return UsageErrorf("%s", msg)
		}
		return action(c, positional[0])
	}
}

// oneArgOnly is oneArg for a verb that takes nothing after "--" either.
func oneArgOnly(msg string, action func(c *cli.Context, arg string) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		positional, after, _ := splitArgs(c)
		if len(positional) != 1 || len(after) > 0 {
			return UsageErrorf("%s", msg)
		}
		return action(c, positional[0])
	}
}

// afterDashes is the action of a verb that runs the command given after "--": it runs action
// with it, or gives the usage error msg when there is none.
func afterDashes(msg string, action func(c *cli.Context, command []string) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		_, command, _ := splitArgs(c)
		if len(command) == 0 {
			return UsageErrorf("%s", msg)
		}
		return action(c, command)
	}
}

// runOr runs a verb with the options its arguments parsed to, or hands them to f.parsed when
// a test of the parsing set it.
func (f *Factory) runOr(opts any, run func() error) error {
	if f.parsed != nil {
		return f.parsed(opts)
	}
	return run()
}
