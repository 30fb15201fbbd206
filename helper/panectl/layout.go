package panectl

import (
	"context"
	"strconv"
	"strings"

	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/tmux"
)

// Session is a tmux session as a herdr workspace sees it.
type Session struct {
	ID, Name     string
	Number       int // its place among the sessions, from 1
	Attached     bool
	Windows      int
	ActiveWindow string // the window's id
	Path         string // the session's folder
}

// Window is a tmux window as a herdr tab sees it.
type Window struct {
	ID, SessionID, Name string
	Index               int
	Active              bool // the session's current window
	Panes               int
}

// Sessions lists the server's sessions in tmux's order.
func (c *Ctl) Sessions(ctx context.Context) ([]Session, error) {
	out, err := c.Tmux.Output(ctx, "list-sessions", "-F", tmux.Row("#{session_id}", "#{session_attached}", "#{session_windows}", tmux.Text("session_path"), tmux.Text("session_name")))
	if err != nil {
		return nil, err
	}
	act, err := c.Tmux.Output(ctx, "list-windows", "-a", "-F", tmux.Row("#{session_id}", "#{window_id}", "#{window_active}"))
	if err != nil {
		return nil, err
	}
	active := map[string]string{}
	for _, f := range rows(act, 3) {
		if f[2] == "1" {
			active[f[0]] = f[1]
		}
	}
	var out2 []Session
	for _, f := range rows(out, 5) {
		n, _ := strconv.Atoi(f[2])
		a, _ := strconv.Atoi(f[1])
		out2 = append(out2, Session{ID: f[0], Name: f[4], Number: len(out2) + 1, Attached: a > 0, Windows: n, ActiveWindow: active[f[0]], Path: f[3]})
	}
	return out2, nil
}

// rows are the fields of each row of a tmux listing made with tmux.Row, the rows of n fields.
func rows(out string, n int) [][]string {
	var all [][]string
	for _, row := range strings.Split(out, "\n") {
		if f := tmux.DecodeRow(row); len(f) == n {
			all = append(all, f)
		}
	}
	return all
}

// Session is one session, by id or name.
func (c *Ctl) Session(ctx context.Context, id string) (Session, error) {
	ss, err := c.Sessions(ctx)
	if err != nil {
		return Session{}, err
	}
	for _, s := range ss {
		if s.ID == id || s.Name == id {
			return s, nil
		}
	}
	return Session{}, coded.Errorf(coded.NotFound, "workspace %s not found", id)
}

// Windows lists the windows of a session ("" for every session).
func (c *Ctl) Windows(ctx context.Context, session string) ([]Window, error) {
	args := []string{"list-windows", "-a"}
	if session != "" {
		args = []string{"list-windows", "-t", session}
	}
	out, err := c.Tmux.Output(ctx, append(args, "-F", tmux.Row("#{window_id}", "#{session_id}", "#{window_index}", "#{window_active}", "#{window_panes}", tmux.Text("window_name")))...)
	if err != nil {
		return nil, err
	}
	var ws []Window
	for _, f := range rows(out, 6) {
		idx, _ := strconv.Atoi(f[2])
		n, _ := strconv.Atoi(f[4])
		ws = append(ws, Window{ID: f[0], SessionID: f[1], Index: idx, Active: f[3] == "1", Panes: n, Name: f[5]})
	}
	return ws, nil
}

// Window is one window, by id.
func (c *Ctl) Window(ctx context.Context, id string) (Window, error) {
	ws, err := c.Windows(ctx, "")
	if err != nil {
		return Window{}, err
	}
	for _, w := range ws {
		if w.ID == id {
			return w, nil
		}
	}
	return Window{}, coded.Errorf(coded.NotFound, "tab %s not found", id)
}

// Created is what a create made: the session or window, and its first pane.
type Created struct {
	SessionID, WindowID, PaneID string
}

// NewSession makes a detached session (label "" lets tmux name it) starting in cwd.
func (c *Ctl) NewSession(ctx context.Context, label, cwd string, env map[string]string, argv []string) (Created, error) {
	cmd := tmux.Cmd{"new-session", "-d", "-P", "-F", createdFormat}
	if label != "" {
		if err := CheckLabel(label, true); err != nil {
			return Created{}, err
		}
		cmd = append(cmd, "-s", label)
	}
	return c.create(ctx, cmd, cwd, env, argv)
}

// NewWindow makes a window at the end of a session, not selected unless focus.
func (c *Ctl) NewWindow(ctx context.Context, session, label, cwd string, env map[string]string, focus bool) (Created, error) {
	cmd := tmux.Cmd{"new-window", "-P", "-F", createdFormat, "-t", session + ":"}
	if !focus {
		cmd = append(cmd, "-d")
	}
	if label != "" {
		if err := CheckLabel(label, false); err != nil {
			return Created{}, err
		}
		cmd = append(cmd, "-n", label)
	}
	return c.create(ctx, cmd, cwd, env, nil)
}

// createdFormat is what new-session, new-window and split-window print with -P: parseCreated
// reads it.
const createdFormat = "#{session_id} #{window_id} #{pane_id}"

// create runs a command that makes a session, window or pane, with the folder, variables and
// command words of the process it starts, and reads what it made.
func (c *Ctl) create(ctx context.Context, cmd tmux.Cmd, cwd string, env map[string]string, argv []string) (Created, error) {
	args, err := spawnArgs(cwd, env, argv)
	if err != nil {
		return Created{}, err
	}
	out, err := c.Tmux.Output(ctx, append(cmd, args...)...)
	if err != nil {
		return Created{}, err
	}
	return parseCreated(out), nil
}

func parseCreated(out string) Created {
	f := strings.Fields(out)
	for len(f) < 3 {
		f = append(f, "")
	}
	return Created{SessionID: f[0], WindowID: f[1], PaneID: f[2]}
}

// Focus makes a session, window or pane the one attached clients show (client "" for every
// client attached to the server: tmux's own choice when one is named by none).
func (c *Ctl) Focus(ctx context.Context, target, client string) error {
	cmds := []tmux.Cmd{}
	if strings.HasPrefix(target, "%") {
		cmds = append(cmds, tmux.Cmd{"select-window", "-t", target}, tmux.Cmd{"select-pane", "-t", target})
	} else if strings.HasPrefix(target, "@") {
		cmds = append(cmds, tmux.Cmd{"select-window", "-t", target})
	}
	sw := tmux.Cmd{"switch-client", "-t", target}
	if client != "" {
		sw = tmux.Cmd{"switch-client", "-c", client, "-t", target}
	}
	if _, err := c.Tmux.Run(ctx, cmds...); err != nil && len(cmds) > 0 {
		return err
	}
	clients, err := c.Tmux.Output(ctx, "list-clients", "-F", "#{client_name}")
	if err != nil {
		return err
	}
	if strings.TrimSpace(clients) == "" {
		return nil // nothing shows it: the selection above is what a client attaching will see
	}
	_, err = c.Tmux.Run(ctx, sw)
	return err
}

// Rename renames a session or window.
func (c *Ctl) RenameSession(ctx context.Context, id, label string) error {
	if err := CheckLabel(label, true); err != nil {
		return err
	}
	_, err := c.Tmux.Run(ctx, tmux.Cmd{"rename-session", "-t", id, "--", label})
	return err
}

// RenameWindow renames a window.
func (c *Ctl) RenameWindow(ctx context.Context, id, label string) error {
	if err := CheckLabel(label, false); err != nil {
		return err
	}
	_, err := c.Tmux.Run(ctx, tmux.Cmd{"rename-window", "-t", id, "--", label})
	return err
}

// KillSession and KillWindow close a session or a window with its panes.
func (c *Ctl) KillSession(ctx context.Context, id string) error {
	_, err := c.Tmux.Run(ctx, tmux.Cmd{"kill-session", "-t", id})
	return err
}

func (c *Ctl) KillWindow(ctx context.Context, id string) error {
	_, err := c.Tmux.Run(ctx, tmux.Cmd{"kill-window", "-t", id})
	return err
}
