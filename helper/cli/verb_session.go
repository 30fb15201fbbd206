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

func newSessionCommand(f *Factory) *cli.Command {
	return group("session", "save and restore tmux sessions, each agent resumed in its own pane",
		verb("save", "[--name <name>] [--force] [--json]", "save every session, window and pane, with each pane's agent and resume command",
			noArgs(f.sessionSave), sessionNameFlag(session.DefaultName, "save under `<name>`"), forceFlag(), sessionJSONFlag()),
		verb("restore", "[--name <name>] [--backup <n>] [--wait <duration>] [--json]", "recreate the saved sessions that are missing and resume each pane's agent",
			noArgs(f.sessionRestore), sessionRestoreFlags()...),
		verb("list", "[--json]", "list the saves (JSON when stdout is not a terminal)",
			noArgs(f.sessionList), sessionJSONFlag()),
		verb("delete", "<name> [--json]", "delete a save and its earlier copies",
			oneArgOnly("session delete takes one save name: taw session delete <name>", f.sessionDelete), sessionJSONFlag()),
		verb("import-resurrect", "[<file>] [--name <name>] [--force] [--json]", "turn a tmux-resurrect save file into a taw save (default: resurrect's newest, as the save \"resurrect\")",
			f.sessionImport, sessionNameFlag(resurrectDefaultName, "save under `<name>`"), forceFlag(), sessionJSONFlag()),
		hidden(verb("autosave", "", "ask for an automatic save (tmux hooks run this when @agent-wizard-autosave is on)", noArgs(f.sessionAutosave))),
		hidden(verb("paint", "<file>", "show a restored pane's saved contents, then start its shell (a restore starts panes with this)",
			oneArg("session paint takes one file: taw session paint <file>", f.sessionPaint))),
		hidden(verb("restore-on-start", "", "restore the save named default into a server that just started (the plugin runs this when @agent-wizard-restore-on-start is on)",
			noArgs(f.sessionRestoreOnStart))),
	)
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
