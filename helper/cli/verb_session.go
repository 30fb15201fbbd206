package cli

import (
	"fmt"

	"github.com/taw-tmux/taw/helper/session"
	"github.com/urfave/cli/v2"
)

// taw session save, restore, list, delete and import-resurrect: the server's sessions, windows
// and panes with their agents, kept in $XDG_DATA_HOME/taw/sessions.
const (
	flagSessionName   = "name"
	flagSessionBackup = "backup"
)

// Error codes of the session verbs.
const (
	CodeSaveNotFound = session.CodeNotFound // no save by that name (or no such earlier copy)
	CodeSaveInvalid  = session.CodeInvalid  // the file is not a save this taw can read
	CodeSaveEmpty    = session.CodeEmpty    // a save of no panes would replace one with panes
)

func newSessionCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "session",
		Usage: "save and restore tmux sessions, each agent resumed in its own pane",
		Subcommands: []*cli.Command{
			newSessionSaveCommand(f, nil),
			newSessionRestoreCommand(f, nil),
			newSessionListCommand(f),
			newSessionDeleteCommand(f, nil),
			newSessionImportCommand(f, nil),
			newSessionAutosaveCommand(f),
			newSessionPaintCommand(f),
			newSessionRestoreOnStartCommand(f),
		},
	}
}

func sessionJSONFlag() cli.Flag { return jsonFlagSaying("print one line of JSON") }

func sessionNameFlag(value, usage string) cli.Flag {
	return &cli.StringFlag{Name: flagSessionName, Value: value, Usage: usage}
}

func sessionStore(f *Factory) *session.Store {
	st := &session.Store{Dir: session.Dir(f.Getenv), Backups: session.DefaultBackups}
	st.PauseFile = f.Getenv("TAW_TEST_SAVE_PAUSE")
	return st
}

func sessionNoArgs(c *cli.Context, usage string) error {
	positional, after, dashDash := splitArgs(c)
	if len(positional) > 0 || dashDash || len(after) > 0 {
		return UsageErrorf("%s takes no arguments: %s", c.Command.FullName(), usage)
	}
	return nil
}

func printSessionNotes(f *Factory, notes []session.Note) {
	for _, n := range notes {
		if n.Target != "" {
			fmt.Fprintf(f.IO.Out, "note: %s: %s\n", n.Target, n.Note)
		} else {
			fmt.Fprintf(f.IO.Out, "note: %s\n", n.Note)
		}
	}
}

func sessionPlural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
