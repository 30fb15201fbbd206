package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/taw-tmux/taw/helper/session"
	"github.com/urfave/cli/v2"
)

// taw session save: every session, window and pane, with its agent, program and (when asked) contents.
type sessionSaveOptions struct {
	Name  string
	Force bool
	JSON  bool
}

func (f *Factory) sessionSave(c *cli.Context) error {
	opts := &sessionSaveOptions{Name: c.String(flagSessionName), Force: c.Bool(flagForce), JSON: c.Bool(flagJSON)}
	if err := session.CheckName(opts.Name); err != nil {
		return err
	}
	return f.runOr(opts, func() error { return sessionSaveRun(c.Context, f, opts) })
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
	return writeSave(f, st, opts.Name, captured.Doc, opts.Force, opts.JSON, captured.Notes)
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
