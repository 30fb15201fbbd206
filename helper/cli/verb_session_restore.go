package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/procinfo"
	"github.com/taw-tmux/taw/helper/session"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/urfave/cli/v2"
)

// restorePromptWait bounds the wait for a restored pane's shell to show its prompt, unless --wait
// says otherwise.
const (
	restorePromptWait    = 10 * time.Second
	maxRestorePromptWait = 10 * time.Minute
)

type sessionRestoreOptions struct {
	Name   string
	Backup int
	Wait   time.Duration
	JSON   bool
}

func sessionRestoreFlags() []cli.Flag {
	return []cli.Flag{
		sessionNameFlag(session.DefaultName, "restore the save `<name>`"),
		&cli.IntFlag{Name: flagSessionBackup, Usage: "restore earlier copy `<n>` of the save (1 is the newest)"},
		&cli.DurationFlag{Name: flagWait, Value: restorePromptWait, Usage: "how long each pane's shell may take to show its prompt before its command is given up (a `<duration>` such as 30s)"},
		sessionJSONFlag(),
	}
}

func (f *Factory) sessionRestore(c *cli.Context) error {
	opts := &sessionRestoreOptions{Name: c.String(flagSessionName), Backup: c.Int(flagSessionBackup), Wait: c.Duration(flagWait), JSON: c.Bool(flagJSON)}
	if opts.Wait <= 0 || opts.Wait > maxRestorePromptWait {
		return Errorf(coded.InvalidArgument, "invalid --wait %s: give a duration above 0 and at most %s, such as 30s", opts.Wait, maxRestorePromptWait)
	}
	if err := session.CheckName(opts.Name); err != nil {
		return err
	}
	if opts.Backup < 0 || opts.Backup > session.MaxBackups {
		return Errorf(coded.InvalidArgument, "invalid --backup %d: give 1 for the newest earlier copy, up to %d", opts.Backup, session.MaxBackups)
	}
	return f.runOr(opts, func() error { return sessionRestoreRun(c.Context, f, opts) })
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
	res, err := restoreDocument(ctx, f, doc, opts.Wait, nil)
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
	for _, p := range res.Programs {
		fmt.Fprintf(w, "started %s in %s (%s): %s\n", filepath.Base(p.Argv[0]), p.Target, p.PaneID, p.Command)
	}
	if res.Painted > 0 {
		fmt.Fprintf(w, "showed the saved contents of %s\n", sessionPlural(res.Painted, "pane"))
	}
	printSessionNotes(f, res.Notes)
	return nil
}

// restoreDocument plans the restore of a save into the server (starting one when none runs) and
// carries it out; before, when set, may change the plan first. taw session restore and the
// restore on start share it.
func restoreDocument(ctx context.Context, f *Factory, doc *session.Document, wait time.Duration, before func(*session.Plan, session.Live)) (session.Result, error) {
	cfg, problems := config.Load(f.Getenv)
	c := f.Tmux()
	live, err := session.ReadLive(ctx, c)
	var terr *tmux.Error
	noServer := errors.As(err, &terr) && terr.Code == tmux.CodeServerNotRunning
	if noServer {
		// After a reboot: the restore's first new-session starts the server.
		live, err = session.NoServer(), nil
	}
	if err != nil {
		return session.Result{}, err
	}
	plan := session.PlanRestore(doc, live, session.PlanOptions{
		ResumeAgents: cfg.Session.ResumeAgentsOnRestore, Programs: live.Programs,
		VimSessions: live.VimSessions, CheckVimSession: func(path string) error { return session.CheckVimSession(path, os.Getuid()) },
	})
	for _, p := range problems {
		plan.Notes = append(plan.Notes, session.Note{Note: "config: " + p.Error()})
	}
	if before != nil {
		before(&plan, live)
	}
	r := &session.Restorer{
		Client: c, LockDir: f.LockDir(), Now: f.Now, PromptWait: wait,
		ShellInFront: func(pid int) (bool, error) {
			front, _, err := procinfo.ShellInFront(pid)
			return front, err
		},
		DirExists:   session.DirExists,
		StartServer: noServer,
		Shell:       live.Shell, ShellCommand: live.ShellCommand,
	}
	if bin, err := f.Executable(); err == nil {
		if b, err := filepath.EvalSymlinks(bin); err == nil {
			bin = b
		}
		r.PaintBin = bin
	}
	return r.Restore(ctx, plan)
}
