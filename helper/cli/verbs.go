package cli

import "github.com/urfave/cli/v2"

// verb declares a leaf verb as help shows it: its name, what it takes, what it does, then the
// action that reads its arguments and its flags.
func verb(name, argsUsage, usage string, action cli.ActionFunc, flags ...cli.Flag) *cli.Command {
	return &cli.Command{Name: name, Usage: usage, ArgsUsage: argsUsage, Action: action, Flags: flags}
}

// group declares a verb group and its verbs, in the order help lists them.
func group(name, usage string, verbs ...*cli.Command) *cli.Command {
	return &cli.Command{Name: name, Usage: usage, Subcommands: verbs}
}

// hidden leaves a verb out of help: taw itself, its hooks or its plugin run it.
func hidden(c *cli.Command) *cli.Command {
	c.Hidden = true
	return c
}
