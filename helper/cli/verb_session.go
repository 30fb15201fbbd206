package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/procinfo"
	"github.com/taw-tmux/taw/helper/session"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxconf"
	"github.com/urfave/cli/v2"
)

// taw session save, restore, list, delete and import-resurrect: the server's sessions, windows
// and panes with their agents, kept in $XDG_DATA_HOME/taw/sessions.
const (
	flagSessionName   = "name"
	flagSessionForce  = "force"
	flagSessionJSON   = "json"
	flagSessionBackup = "backup"
	flagSessionWait   = "wait"
)

// Error codes of the session verbs.
const (
	CodeSaveNotFound = session.CodeNotFound // no save by that name (or no such earlier copy)
	CodeSaveInvalid  = session.CodeInvalid  // the file is not a save this taw can read
	CodeSaveEmpty    = session.CodeEmpty    // a save of no panes would replace one with panes
)

// restorePromptWait bounds the wait for a restored pane's shell to show its prompt, unless --wait
// says otherwise.
const (
	restorePromptWait    = 10 * time.Second
	maxRestorePromptWait = 10 * time.Minute
)

// resurrectDefaultName is the save an import writes when no --name is given.
const resurrectDefaultName = "resurrect"

func newSessionCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "session",
		Usage: "save and restore tmux sessions, each agent resumed in its own pane",
		Subcommands: []*cli.Command{
			newSessionSaveCommand(f, nil),
			newSessionRestoreCommand(f, nil),
			newSessionListCommand(f, nil),
			newSessionDeleteCommand(f, nil),
			newSessionImportCommand(f, nil),
			newSessionAutosaveCommand(f),
		},
	}
}

func sessionJSONFlag() cli.Flag {
	return &cli.BoolFlag{Name: flagSessionJSON, Usage: "print one line of JSON"}
}

func sessionNameFlag(usage string) cli.Flag {
	return &cli.StringFlag{Name: flagSessionName, Value: session.DefaultName, Usage: usage}
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

// save

type sessionSaveOptions struct {
	Name  string
	Force bool
	JSON  bool
}

func newSessionSaveCommand(f *Factory, runF func(*sessionSaveOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "save",
		Usage:     "save every session, window and pane, with each pane's agent and resume command",
		ArgsUsage: "[--name <name>] [--force] [--json]",
		Flags: []cli.Flag{
			sessionNameFlag("save under `<name>`"),
			&cli.BoolFlag{Name: flagSessionForce, Usage: "replace a save that holds panes even with one that holds none"},
			sessionJSONFlag(),
		},
		Action: func(c *cli.Context) error {
			if err := sessionNoArgs(c, "taw session save [--name <name>] [--force] [--json]"); err != nil {
				return err
			}
			opts := &sessionSaveOptions{Name: c.String(flagSessionName), Force: c.Bool(flagSessionForce), JSON: c.Bool(flagSessionJSON)}
			if err := session.CheckName(opts.Name); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return sessionSaveRun(c.Context, f, opts)
		},
	}
}

type sessionSaveReply struct {
	OK        bool           `json:"ok"`
	Name      string         `json:"name"`
	Path      string         `json:"path"`
	SavedAt   time.Time      `json:"saved_at"`
	Unchanged bool           `json:"unchanged"`
	Notes     []session.Note `json:"notes,omitempty"`
	session.Counts
}

func sessionSaveRun(ctx context.Context, f *Factory, opts *sessionSaveOptions) error {
	captured, err := session.Capture(ctx, f.Tmux(), f.Now(), "save")
	if err != nil {
		return err
	}
	st := sessionStore(f)
	st.Backups = captured.Backups
	return writeSave(f, st, opts.Name, captured.Doc, opts.Force, opts.JSON, nil)
}

func writeSave(f *Factory, st *session.Store, name string, doc *session.Document, force, asJSON bool, notes []session.Note) error {
	res, err := st.Write(name, doc, force)
	if err != nil {
		return err
	}
	reply := sessionSaveReply{OK: true, Name: name, Path: res.Path, SavedAt: doc.SavedAt, Unchanged: res.Unchanged, Notes: notes, Counts: doc.Count()}
	if asJSON {
		return writeJSONLine(f.IO.Out, reply)
	}
	n := reply.Counts
	_, err = fmt.Fprintf(f.IO.Out, "saved %s, %s, %s (%s) as %q in %s\n",
		sessionPlural(n.Sessions, "session"), sessionPlural(n.Windows, "window"), sessionPlural(n.Panes, "pane"), sessionPlural(n.Agents, "agent"), name, res.Path)
	printSessionNotes(f, notes)
	return err
}

// restore

type sessionRestoreOptions struct {
	Name   string
	Backup int
	Wait   time.Duration
	JSON   bool
}

func newSessionRestoreCommand(f *Factory, runF func(*sessionRestoreOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "restore",
		Usage:     "recreate the saved sessions that are missing and resume each pane's agent",
		ArgsUsage: "[--name <name>] [--backup <n>] [--wait <duration>] [--json]",
		Flags: []cli.Flag{
			sessionNameFlag("restore the save `<name>`"),
			&cli.IntFlag{Name: flagSessionBackup, Usage: "restore earlier copy `<n>` of the save (1 is the newest)"},
			&cli.DurationFlag{Name: flagSessionWait, Value: restorePromptWait, Usage: "how long each pane's shell may take to show its prompt before its command is given up (a `<duration>` such as 30s)"},
			sessionJSONFlag(),
		},
		Action: func(c *cli.Context) error {
			if err := sessionNoArgs(c, "taw session restore [--name <name>] [--backup <n>] [--wait <duration>] [--json]"); err != nil {
				return err
			}
			opts := &sessionRestoreOptions{Name: c.String(flagSessionName), Backup: c.Int(flagSessionBackup), Wait: c.Duration(flagSessionWait), JSON: c.Bool(flagSessionJSON)}
			if opts.Wait <= 0 || opts.Wait > maxRestorePromptWait {
				return Errorf(CodeInvalidArgument, "invalid --wait %s: give a duration above 0 and at most %s, such as 30s", opts.Wait, maxRestorePromptWait)
			}
			if err := session.CheckName(opts.Name); err != nil {
				return err
			}
			if opts.Backup < 0 || opts.Backup > session.MaxBackups {
				return Errorf(CodeInvalidArgument, "invalid --backup %d: give 1 for the newest earlier copy, up to %d", opts.Backup, session.MaxBackups)
			}
			if runF != nil {
				return runF(opts)
			}
			return sessionRestoreRun(c.Context, f, opts)
		},
	}
}

type sessionRestoreReply struct {
	OK   bool   `json:"ok"`
	Name string `json:"name"`
	session.Result
}

func sessionRestoreRun(ctx context.Context, f *Factory, opts *sessionRestoreOptions) error {
	doc, err := sessionStore(f).Read(opts.Name, opts.Backup)
	if err != nil {
		return err
	}
	cfg, problems := config.Load(f.Getenv)
	c := f.Tmux()
	live, err := session.ReadLive(ctx, c)
	var terr *tmux.Error
	noServer := errors.As(err, &terr) && terr.Code == CodeServerNotRunning
	if noServer {
		// After a reboot: the restore's first new-session starts the server.
		live, err = session.Live{Sessions: map[string]bool{}}, nil
	}
	if err != nil {
		return err
	}
	plan := session.PlanRestore(doc, live, cfg.Session.ResumeAgentsOnRestore)
	for _, p := range problems {
		plan.Notes = append(plan.Notes, session.Note{Note: "config: " + p.Error()})
	}
	r := &session.Restorer{
		Client: c, LockDir: f.LockDir(), Now: f.Now, PromptWait: opts.Wait,
		ShellInFront: func(pid int) (bool, error) {
			front, _, err := procinfo.ShellInFront(pid)
			return front, err
		},
		DirExists:   session.DirExists,
		StartServer: noServer,
	}
	res, err := r.Restore(ctx, plan)
	if err != nil {
		return err
	}
	if res.Notes == nil {
		res.Notes = []session.Note{}
	}
	if opts.JSON {
		return writeJSONLine(f.IO.Out, sessionRestoreReply{OK: true, Name: opts.Name, Result: res})
	}
	w := f.IO.Out
	if len(res.Created) > 0 {
		fmt.Fprintf(w, "restored %s (%s)\n", strings.Join(res.Created, ", "), sessionPlural(res.Panes, "pane"))
	} else {
		fmt.Fprintln(w, "nothing to restore: every saved session exists")
	}
	if len(res.Kept) > 0 {
		fmt.Fprintf(w, "left as they are (they exist): %s\n", strings.Join(res.Kept, ", "))
	}
	for _, r := range res.Resumed {
		fmt.Fprintf(w, "resumed %s in %s (%s): %s\n", r.Agent, r.Target, r.PaneID, r.Command)
	}
	printSessionNotes(f, res.Notes)
	return nil
}

// list

type sessionListOptions struct{ JSON bool }

func newSessionListCommand(f *Factory, runF func(*sessionListOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "list",
		Usage:     "list the saves (JSON when stdout is not a terminal)",
		ArgsUsage: "[--json]",
		Flags:     []cli.Flag{sessionJSONFlag()},
		Action: func(c *cli.Context) error {
			if err := sessionNoArgs(c, "taw session list [--json]"); err != nil {
				return err
			}
			opts := &sessionListOptions{JSON: wantJSON(f, c)}
			if runF != nil {
				return runF(opts)
			}
			return sessionListRun(f, opts)
		},
	}
}

func sessionListRun(f *Factory, opts *sessionListOptions) error {
	entries, err := sessionStore(f).List()
	if err != nil {
		return err
	}
	if entries == nil {
		entries = []session.Entry{}
	}
	if opts.JSON {
		return writeJSONLine(f.IO.Out, struct {
			OK    bool            `json:"ok"`
			Saves []session.Entry `json:"saves"`
		}{true, entries})
	}
	row := func(e session.Entry) []any {
		saved := "-"
		if !e.SavedAt.IsZero() {
			saved = e.SavedAt.Local().Format("2006-01-02 15:04:05")
		}
		if e.Problem != "" {
			saved = "unreadable"
		}
		return []any{e.Name, saved, e.Origin, e.Sessions, e.Windows, e.Panes, e.Agents, e.Backups}
	}
	tw := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSAVED\tBY\tSESSIONS\tWINDOWS\tPANES\tAGENTS\tBACKUPS")
	for _, e := range entries {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\n", row(e)...)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Why a save is unreadable is too long for its column: said under the table.
	for _, e := range entries {
		if e.Problem != "" {
			fmt.Fprintf(f.IO.Out, "%s is unreadable: %s\n", e.Name, e.Problem)
		}
	}
	return nil
}

// delete

type sessionDeleteOptions struct {
	Name string
	JSON bool
}

func newSessionDeleteCommand(f *Factory, runF func(*sessionDeleteOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "delete",
		Usage:     "delete a save and its earlier copies",
		ArgsUsage: "<name> [--json]",
		Flags:     []cli.Flag{sessionJSONFlag()},
		Action: func(c *cli.Context) error {
			positional, after, _ := splitArgs(c)
			if len(positional) != 1 || len(after) > 0 {
				return UsageErrorf("session delete takes one save name: taw session delete <name>")
			}
			opts := &sessionDeleteOptions{Name: positional[0], JSON: c.Bool(flagSessionJSON)}
			if err := session.CheckName(opts.Name); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return sessionDeleteRun(f, opts)
		},
	}
}

func sessionDeleteRun(f *Factory, opts *sessionDeleteOptions) error {
	removed, err := sessionStore(f).Delete(opts.Name)
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeJSONLine(f.IO.Out, struct {
			OK      bool   `json:"ok"`
			Name    string `json:"name"`
			Removed int    `json:"removed"`
		}{true, opts.Name, removed})
	}
	_, err = fmt.Fprintf(f.IO.Out, "deleted save %q (%s)\n", opts.Name, sessionPlural(removed, "file"))
	return err
}

// import-resurrect

type sessionImportOptions struct {
	File  string
	Name  string
	Force bool
	JSON  bool
}

func newSessionImportCommand(f *Factory, runF func(*sessionImportOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "import-resurrect",
		Usage:     "turn a tmux-resurrect save file into a taw save (default: resurrect's newest, as the save \"resurrect\")",
		ArgsUsage: "[<file>] [--name <name>] [--force] [--json]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: flagSessionName, Value: resurrectDefaultName, Usage: "save under `<name>`"},
			&cli.BoolFlag{Name: flagSessionForce, Usage: "replace a save that holds panes even with one that holds none"},
			sessionJSONFlag(),
		},
		Action: func(c *cli.Context) error {
			positional, after, _ := splitArgs(c)
			if len(positional) > 1 || len(after) > 0 {
				return UsageErrorf("session import-resurrect takes at most one file: taw session import-resurrect [<file>]")
			}
			opts := &sessionImportOptions{Name: c.String(flagSessionName), Force: c.Bool(flagSessionForce), JSON: c.Bool(flagSessionJSON)}
			if len(positional) == 1 {
				opts.File = positional[0]
			}
			if err := session.CheckName(opts.Name); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return sessionImportRun(f, opts)
		},
	}
}

func sessionImportRun(f *Factory, opts *sessionImportOptions) error {
	file := opts.File
	if file == "" {
		file = session.ResurrectFile(f.Getenv, func(p string) bool { _, err := os.Stat(p); return err == nil })
	}
	r, err := os.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		return Errorf(CodeSaveNotFound, "no tmux-resurrect save at %s: name the file, such as ~/.local/share/tmux/resurrect/last", file)
	}
	if err != nil {
		return Errorf(CodeInvalidArgument, "read %s: %v", file, err)
	}
	defer r.Close()
	doc, notes, err := session.ParseResurrect(r, f.Now())
	if err != nil {
		return err
	}
	return writeSave(f, sessionStore(f), opts.Name, doc, opts.Force, opts.JSON, notes)
}

// autosave (hooks run it)

func newSessionAutosaveCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:   "autosave",
		Usage:  "ask for an automatic save (tmux hooks run this when @agent-wizard-autosave is on)",
		Hidden: true,
		Action: func(c *cli.Context) error {
			a := &session.Autosaver{
				Client: f.Tmux(), LockDir: f.LockDir(), Store: sessionStore(f), Now: f.Now, Sleep: time.Sleep,
			}
			return a.Request(c.Context)
		},
	}
}

// autosaveEvents are the tmux events after which the layout of sessions may have changed.
var autosaveEvents = []string{
	"session-created", "session-closed", "session-renamed", "window-linked", "window-unlinked",
	"window-renamed", "pane-exited", "after-split-window", "after-kill-pane", "after-resize-pane",
	"after-select-layout",
}

// sessionAutosaveStep installs the autosave hooks when @agent-wizard-autosave is on.
var sessionAutosaveStep = loadStep{
	name: "automatic saves",
	hooks: func(l *loadContext) map[string][]string {
		if !l.Settings.On(tmuxconf.SettingAutosave) {
			return nil
		}
		hooks := map[string][]string{}
		for _, ev := range autosaveEvents {
			hooks[ev] = []string{tmuxconf.HookCommand(l.Bin, ev, "-S", l.F.SocketPath(), "session", "autosave")}
		}
		return hooks
	},
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
