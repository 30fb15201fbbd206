package cli

import "github.com/urfave/cli/v2"

// The flags more than one verb declares, each with its name in one place. A verb's own flags
// stay in its file.
const (
	flagJSON    = "json"
	flagClient  = "client"
	flagPane    = "pane"
	flagTimeout = "timeout"
	flagWait    = "wait"
	flagUntil   = "until"
	flagForce   = "force"
)

// jsonFlag is --json of the verbs that print JSON whenever stdout is not a terminal (wantJSON).
func jsonFlag() cli.Flag {
	return jsonFlagSaying("print JSON (the default when stdout is not a terminal)")
}

// jsonFlagSaying is --json of a verb whose JSON is shaped its own way (one object, one a line).
func jsonFlagSaying(usage string) cli.Flag {
	return &cli.BoolFlag{Name: flagJSON, Usage: usage}
}

func wantJSON(f *Factory, c *cli.Context) bool { return c.Bool(flagJSON) || !f.IO.StdoutTTY }

func clientFlag() cli.Flag {
	return &cli.StringFlag{Name: flagClient, Usage: "move tmux client `<name>` (#{client_name}); default the client of the pane taw runs in"}
}

// timeoutFlag is --timeout of the verbs that wait on an agent; parseTimeout reads it.
func timeoutFlag(usage string) cli.Flag {
	return &cli.StringFlag{Name: flagTimeout, Usage: usage}
}

// untilFlag is --until of the verbs that wait on an agent; parseWaitFlags reads it.
func untilFlag(usage string) cli.Flag {
	return &cli.StringSliceFlag{Name: flagUntil, Usage: usage}
}

func forceFlag() cli.Flag {
	return &cli.BoolFlag{Name: flagForce, Usage: "replace a save that holds panes even with one that holds none"}
}

// jsonObjectFlag is --json of the verbs that explain one thing as one object.
func jsonObjectFlag() cli.Flag { return jsonFlagSaying("print one JSON object") }
