package cli

import (
	"bufio"
	"errors"
	"io/fs"
	"os"

	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/filelock"
	"github.com/taw-tmux/taw/helper/session"
	"github.com/urfave/cli/v2"
)

// resurrectDefaultName is the save an import writes when no --name is given.
const resurrectDefaultName = "resurrect"

type sessionImportOptions struct {
	File  string
	Name  string
	Force bool
	JSON  bool
}

func (f *Factory) sessionImport(c *cli.Context) error {
	positional, after, _ := splitArgs(c)
	if len(positional) > 1 || len(after) > 0 {
		return UsageErrorf("session import-resurrect takes at most one file: taw session import-resurrect [<file>]")
	}
	opts := &sessionImportOptions{Name: c.String(flagSessionName), Force: c.Bool(flagForce), JSON: c.Bool(flagJSON)}
	if len(positional) == 1 {
		opts.File = positional[0]
	}
	if err := session.CheckName(opts.Name); err != nil {
		return err
	}
	return f.runOr(opts, func() error { return sessionImportRun(f, opts) })
}

func sessionImportRun(f *Factory, opts *sessionImportOptions) error {
	file := opts.File
	if file == "" {
		file = session.ResurrectFile(f.Getenv, func(p string) bool { _, err := os.Stat(p); return err == nil })
	}
	r, err := filelock.OpenRegular(file)
	if errors.Is(err, fs.ErrNotExist) {
		return Errorf(coded.SaveNotFound, "no tmux-resurrect save at %s: name the file, such as ~/.local/share/tmux/resurrect/last", file)
	}
	var notRegular *filelock.NotRegularError
	if errors.As(err, &notRegular) {
		return Errorf(notRegular.ErrorCode(), "read %s: %v", file, err)
	}
	if err != nil {
		return Errorf(coded.InvalidArgument, "read %s: %v", file, err)
	}
	defer r.Close()
	doc, notes, err := session.ParseResurrect(r, f.Now())
	if errors.Is(err, bufio.ErrTooLong) {
		return Errorf(coded.SaveInvalid, "not a tmux-resurrect save: %s has a line over 4 MiB", file)
	}
	if err != nil {
		return err
	}
	// An import of nothing would write a save that restores nothing, under a name a later
	// import or restore trusts: only with --force, as for a save of no panes.
	if len(doc.Sessions) == 0 && !opts.Force {
		return Errorf(coded.SaveEmpty, "%s holds no pane to import: name a tmux-resurrect save, such as ~/.local/share/tmux/resurrect/last (--force imports it anyway)", file)
	}
	return writeSave(f, sessionStore(f), opts.Name, doc, opts.Force, opts.JSON, notes)
}
