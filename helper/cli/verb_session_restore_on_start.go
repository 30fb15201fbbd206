package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/filelock"
	"github.com/taw-tmux/taw/helper/procinfo"
	"github.com/taw-tmux/taw/helper/session"
	"github.com/taw-tmux/taw/helper/shellquote"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxfmt"
	"github.com/urfave/cli/v2"
)

// taw session restore-on-start: the plugin starts it in the background when it loads with
// @agent-wizard-restore-on-start on (or replace). In a server that just started and holds only
// its first, untouched session it restores the save named default, once, and says what it did.

// onStartFirstSessionWait bounds the wait for the server's first session: the plugin loads while
// tmux reads its configuration, before the session the server was started for exists.
const (
	onStartFirstSessionWait = 10 * time.Second
	onStartPromptWait       = time.Minute
	// onStartPlaceholder is the name the first session takes while a replacing restore brings
	// back a saved session of the same name.
	onStartPlaceholder = "taw-restoring"
)

var sessionRestoreOnStartStep = loadStep{
	name: "restore on start",
	run: func(ctx context.Context, l *loadContext) error {
		if session.ParseOnStart(l.Settings.Get(session.SettingRestoreOnStart)) == session.OnStartOff {
			return nil
		}
		sh := shellquote.Quoted(l.Bin) + " -S " + shellquote.Quoted(l.F.SocketPath()) + " session restore-on-start >/dev/null 2>&1 || true"
		_, err := l.Client.Run(ctx, tmux.Cmd{"run-shell", "-b", tmuxfmt.Literal(sh)})
		return err
	},
}

func (f *Factory) sessionRestoreOnStart(c *cli.Context) error {
	return sessionRestoreOnStartRun(c.Context, f)
}

func sessionRestoreOnStartRun(ctx context.Context, f *Factory) error {
	c := f.Tmux()
	settings, err := readOnStartSettings(ctx, c)
	if err != nil {
		return err
	}
	mode := session.ParseOnStart(settings)
	if mode == session.OnStartOff {
		return nil
	}
	// Two loads of the plugin at once start two of these: they take turns, and the second finds
	// the first one's mark.
	if err := filelock.PrivateDir(f.LockDir()); err != nil {
		return err
	}
	// The first one may be restoring for as long as a restore waits for prompts (at most 10m).
	unlock, err := filelock.Lock(filepath.Join(f.LockDir(), "restore-on-start.lock"), 11*time.Minute)
	if err != nil {
		return err
	}
	defer unlock()
	st, err := waitFirstSession(ctx, f, c)
	if err != nil {
		return err
	}
	ok, why := session.DecideOnStart(st, f.Now(), func(pid int) bool { return shellComesToPrompt(ctx, f, pid) })
	if !ok {
		fmt.Fprintln(f.IO.Out, "no restore on start:", why)
		if st.Restored == "" {
			// Kept where the person can look (no message: nothing happened to them); a server
			// is restored on start only once.
			_, err := c.Run(ctx, tmux.Cmd{"set-option", "-gq", session.SettingRestoredOnStart, tmuxfmt.Literal("taw did not restore on start: " + why)})
			return err
		}
		return nil
	}
	first := st.Sessions[0]
	if _, err := c.Run(ctx, tmux.Cmd{"set-option", "-gq", session.SettingRestoredOnStart, "restoring"}); err != nil {
		return err
	}
	doc, err := sessionStore(f).Read(session.DefaultName, 0)
	if err != nil {
		return sayOnStart(ctx, c, f, "taw did not restore on start: "+err.Error())
	}
	placeholder := false
	if mode == session.OnStartReplace && slices.ContainsFunc(doc.Sessions, func(s session.Session) bool { return s.Name == first.Name }) {
		// The saved session of that name comes back in its place.
		if _, err := c.Run(ctx, tmux.Cmd{"rename-session", "-t", first.ID, onStartPlaceholder}); err == nil {
			placeholder = true
		}
	}
	res, err := restoreDocument(ctx, f, doc, onStartPromptWait, nil)
	if err != nil {
		if placeholder {
			_, _ = c.Run(context.WithoutCancel(ctx), tmux.Cmd{"rename-session", "-t", first.ID, tmuxfmt.Value(first.Name)})
		}
		return sayOnStart(ctx, c, f, "taw did not restore on start: "+err.Error())
	}
	replaced := ""
	if mode == session.OnStartReplace && len(res.Created) > 0 {
		if err := replaceFirstSession(ctx, c, first, res.Created[0]); err == nil {
			replaced = first.Name
		}
	} else if placeholder {
		_, _ = c.Run(ctx, tmux.Cmd{"rename-session", "-t", first.ID, tmuxfmt.Value(first.Name)})
	}
	return sayOnStart(ctx, c, f, session.OnStartSummary(session.DefaultName, doc, res, replaced))
}

func readOnStartSettings(ctx context.Context, c *tmux.Client) (string, error) {
	return c.Output(ctx, "display-message", "-p", "#{"+session.SettingRestoreOnStart+"}")
}

// shellComesToPrompt says whether the first pane's shell is at its prompt, waiting (bounded) for
// one that is still starting: on a loaded machine a new server's shell takes seconds, and it is
// not in use for that.
func shellComesToPrompt(ctx context.Context, f *Factory, pid int) bool {
	deadline := f.Now().Add(onStartPromptWait)
	for {
		if front, _, err := procinfo.ShellInFront(pid); err == nil && front {
			return true
		}
		if f.Now().After(deadline) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// waitFirstSession waits (bounded) until the server holds a session: the plugin may load before
// the session tmux was started for is made.
func waitFirstSession(ctx context.Context, f *Factory, c *tmux.Client) (session.StartState, error) {
	deadline := f.Now().Add(onStartFirstSessionWait)
	for {
		// While no session exists, display-message has no target to expand formats for.
		names, err := c.Output(ctx, "list-sessions", "-F", "#{session_id}")
		if err == nil && names != "" {
			return session.ReadStartState(ctx, c)
		}
		if f.Now().After(deadline) {
			return session.StartState{}, nil
		}
		select {
		case <-ctx.Done():
			return session.StartState{}, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// replaceFirstSession moves the clients of the untouched first session to the restored one and
// closes it, if it is still untouched.
func replaceFirstSession(ctx context.Context, c *tmux.Client, first session.StartSession, to string) error {
	out, err := c.Run(ctx, tmux.Cmd{"list-clients", "-t", first.ID, "-F", "#{client_name}"},
		tmux.Cmd{"display-message", "-p", "-t", first.ID, "#{session_windows} #{window_panes}"})
	if err != nil {
		return err
	}
	lines := outputLinesOf(out)
	if len(lines) == 0 || lines[len(lines)-1] != "1 1" {
		return fmt.Errorf("the first session was changed meanwhile: left as it is")
	}
	var cmds []tmux.Cmd
	for _, client := range lines[:len(lines)-1] {
		cmds = append(cmds, tmux.Cmd{"switch-client", "-c", client, "-t", "=" + tmuxfmt.Literal(to)})
	}
	cmds = append(cmds, tmux.Cmd{"kill-session", "-t", first.ID})
	_, err = c.Run(ctx, cmds...)
	return err
}

// sayOnStart keeps the message in @agent-wizard-restored and shows it to every client there is.
func sayOnStart(ctx context.Context, c *tmux.Client, f *Factory, msg string) error {
	fmt.Fprintln(f.IO.Out, msg)
	cmds := []tmux.Cmd{{"set-option", "-gq", session.SettingRestoredOnStart, tmuxfmt.Literal(msg)}}
	if out, err := c.Output(ctx, "list-clients", "-F", "#{client_name}"); err == nil {
		f, _ := c.Features(ctx)
		for _, client := range outputLinesOf(out) {
			cmds = append(cmds, f.MessageCmd(client, "8000", tmuxfmt.Message(msg)))
		}
	}
	_, err := c.Run(ctx, cmds...)
	return err
}

func outputLinesOf(out string) []string {
	out = strings.TrimSuffix(out, "\n")
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n")
}
