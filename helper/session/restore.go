package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxfmt"
)

// ReadLive reads the server's sessions and panes in one tmux call.
func ReadLive(ctx context.Context, c *tmux.Client) (Live, error) {
	out, err := c.Run(ctx,
		tmux.Cmd{"list-sessions", "-F", rowOf("S", tmux.Text("session_name"))},
		panestate.ListCmd(rowOf("P")+fieldSep),
		tmux.Cmd{"display-message", "-p", rowOf("O", tmux.Text(SettingRestorePrograms), tmux.Text(SettingResurrectProcesses),
			tmux.Text("default-shell"), tmux.Text("default-command"), tmux.Text(SettingRestoreVimSessions))},
	)
	if err != nil {
		if empty, _ := emptyServer(ctx, c); empty {
			return emptyLive(ctx, c), nil
		}
		return Live{}, err
	}
	live := Live{Sessions: map[string]bool{}}
	for _, row := range strings.Split(tmux.Decode(out), rowMark) {
		kind, rest, ok := strings.Cut(strings.TrimSuffix(row, "\n"), fieldSep)
		if !ok {
			continue
		}
		switch kind {
		case "S":
			live.Sessions[rest] = true
		case "P":
			p, err := allFields(strings.Split(rest, fieldSep))
			if err != nil {
				return Live{}, err
			}
			live.Panes = append(live.Panes, p)
		case "O":
			if f := strings.Split(rest, fieldSep); len(f) == 5 {
				live.Programs = ParsePrograms(f[0], f[1])
				live.Shell, live.ShellCommand = f[2], f[3]
				live.VimSessions = isOn(f[4])
			}
		}
	}
	return live, nil
}

// Restorer carries out a plan in a running server.
type Restorer struct {
	Client  *tmux.Client
	LockDir string
	Now     func() time.Time
	// PromptWait bounds how long a pane's shell may take to show its prompt before its command
	// is given up (and said so).
	PromptWait time.Duration
	// ShellInFront says whether the pane's first process holds the pane's terminal.
	ShellInFront func(pid int) (bool, error)
	// DirExists says whether a saved directory is still there.
	DirExists func(dir string) bool
	// StartServer: no server runs yet, so the restore's first session starts it.
	StartServer bool
	// PaintBin is the taw binary whose paint verb shows a pane's saved contents before its
	// shell starts; "" shows none.
	PaintBin string
	// Shell and ShellCommand are tmux's default-shell and default-command, which a painted
	// pane becomes once its contents are shown.
	Shell, ShellCommand string
}

// Result is what a restore did.
type Result struct {
	Created  []string  `json:"created"`
	Kept     []string  `json:"kept"`
	Panes    int       `json:"panes"`
	Resumed  []Resumed `json:"resumed"`
	Programs []Started `json:"programs"`
	Painted  int       `json:"painted"` // panes that show their saved contents
	Notes    []Note    `json:"notes"`
}

// Resumed is one pane whose command was typed.
type Resumed struct {
	Target  string `json:"target"`
	PaneID  string `json:"pane_id"`
	Agent   string `json:"agent"`
	Origin  string `json:"origin"` // reported or taw
	Command string `json:"command"`
}

// Started is one pane whose program was started again.
type Started struct {
	Target  string   `json:"target"`
	PaneID  string   `json:"pane_id"`
	Argv    []string `json:"argv"`
	Command string   `json:"command"`
}

// created is what tmux made for one window.
type created struct {
	session  string // session id
	windowID string
	panes    []string // pane ids in saved order
}

// restoreRun is one restore under way: the plan, what tmux made of it so far, and the result.
type restoreRun struct {
	r          *Restorer
	plan       Plan
	res        Result
	sessionIDs []string
	windows    [][]created // per session of the plan, per window
	firstIndex []int       // the index tmux gave each session's first window
	madePanes  int         // panes tmux made so far, for an error that says how far it got
}

// Restore creates the plan's sessions, windows and panes in three tmux calls, then types each
// command as its pane's shell reaches its prompt. If creating fails, the sessions this restore
// made are removed again, so nothing is left half-made.
func (r *Restorer) Restore(ctx context.Context, plan Plan) (Result, error) {
	run := &restoreRun{r: r, plan: plan, res: Result{Created: []string{}, Kept: plan.Kept, Resumed: []Resumed{},
		Programs: []Started{}, Notes: append([]Note(nil), plan.Notes...)}}
	if run.res.Kept == nil {
		run.res.Kept = []string{}
	}
	if len(plan.Create) == 0 {
		return run.res, nil
	}
	for _, phase := range []func(context.Context) error{run.createSessions, run.createWindowsAndPanes, run.arrange} {
		if err := phase(ctx); err != nil {
			return run.undo(ctx, err)
		}
	}
	if err := r.typeAll(ctx, plan.Typing, run.paneIDs(), &run.res); err != nil {
		return run.res, err
	}
	return run.res, nil
}

// undo removes the sessions this restore made, and says how far it got: what it made (and
// removed again) and what it did not make.
func (run *restoreRun) undo(ctx context.Context, err error) (Result, error) {
	var kill []tmux.Cmd
	for _, id := range run.sessionIDs {
		kill = append(kill, tmux.KillSession(id)...)
	}
	_, kerr := run.r.Client.Run(context.WithoutCancel(ctx), kill...)
	var made, missing []string
	panes := 0
	for i, s := range run.plan.Create {
		if i < len(run.sessionIDs) {
			made = append(made, s.Name)
		} else {
			missing = append(missing, s.Name)
		}
		for _, w := range s.Windows {
			panes += len(w.Panes)
		}
	}
	what := fmt.Sprintf("made %d of %d panes and %d of %d sessions", run.madePanes, panes, len(made), len(run.plan.Create))
	if len(made) > 0 {
		what += " (" + strings.Join(made, ", ") + ")"
	}
	if len(missing) > 0 {
		what += "; not made: " + strings.Join(missing, ", ")
	}
	kept := "removed what it made, so nothing of it is kept"
	if kerr != nil {
		kept = "could not remove what it made (" + kerr.Error() + "): remove those sessions by hand"
	}
	return Result{}, fmt.Errorf("restore stopped: it %s; it %s: %w", what, kept, err)
}

// paneStart is the directory and the command a new pane starts with: its saved directory when it
// is still there, and taw's paint verb when its contents were saved.
func (run *restoreRun) paneStart(t Target, p Pane) (dirArgs, command []string) {
	if p.Dir != "" {
		if run.r.DirExists != nil && !run.r.DirExists(p.Dir) {
			run.res.Notes = append(run.res.Notes, Note{Target: t.String(), Note: "directory " + p.Dir + " is gone: the pane starts in tmux's default directory"})
		} else {
			dirArgs = []string{"-c", tmuxfmt.Value(p.Dir)}
		}
	}
	if len(p.Contents) == 0 || run.r.PaintBin == "" {
		return dirArgs, nil
	}
	file, err := WritePaintFile(run.r.LockDir, PaintFile{Contents: p.Contents, Shell: run.r.Shell, ShellCommand: run.r.ShellCommand})
	if err != nil {
		run.res.Notes = append(run.res.Notes, Note{Target: t.String(), Note: "contents not shown: " + err.Error()})
		return dirArgs, nil
	}
	run.res.Painted++
	// Two or more words: tmux runs them directly, with no shell reading them.
	return dirArgs, []string{run.r.PaintBin, "session", "paint", file}
}

// createSessions makes each session with its first window and first pane.
func (run *restoreRun) createSessions(ctx context.Context) error {
	plan := run.plan
	var cmds []tmux.Cmd
	for _, s := range plan.Create {
		w := s.Windows[0]
		cmd := tmux.Cmd{"new-session", "-d", "-s", tmuxfmt.Value(s.Name), "-n", tmuxfmt.Value(w.Name)}
		dir, command := run.paneStart(Target{s.Name, w.Index, 0}, w.Panes[0])
		cmd = append(cmd, dir...)
		if width, height := Size(s); width > 0 && height > 0 {
			cmd = append(cmd, "-x", strconv.Itoa(width), "-y", strconv.Itoa(height))
		}
		cmd = append(cmd, "-P", "-F", tmux.Row("#{session_id}", "#{window_id}", "#{window_index}", "#{pane_id}"))
		cmds = append(cmds, append(cmd, command...))
	}
	out, err := run.runCreate(ctx, cmds)
	run.windows = make([][]created, len(plan.Create))
	run.firstIndex = make([]int, len(plan.Create))
	for i, l := range outputLines(out) {
		f := tmux.DecodeRow(l)
		if len(f) != 4 || i >= len(plan.Create) {
			continue
		}
		run.sessionIDs = append(run.sessionIDs, f[0])
		run.madePanes++
		run.firstIndex[i], _ = strconv.Atoi(f[2])
		run.windows[i] = []created{{session: f[0], windowID: f[1], panes: []string{f[3]}}}
	}
	if err != nil {
		return err
	}
	if len(run.sessionIDs) != len(plan.Create) {
		return fmt.Errorf("tmux created %d of %d sessions", len(run.sessionIDs), len(plan.Create))
	}
	return nil
}

// runCreate runs the new-session commands, starting the server first when none runs.
func (run *restoreRun) runCreate(ctx context.Context, cmds []tmux.Cmd) (string, error) {
	r := run.r
	if !r.StartServer {
		return r.Client.Run(ctx, cmds...)
	}
	// Only the tmux binary starts a server (taw's own client speaks to a running one), and
	// tmux 3.3a's new server dies when the command list that starts it holds a second
	// new-session after one with -n: so the first session starts the server on its own.
	starter := *r.Client
	if starter.Bin == "" {
		starter.Bin = "tmux"
	}
	out, err := starter.Run(ctx, cmds[0])
	// A server that was just killed may still accept a connection while it exits; the next
	// try starts the new one.
	for try := 0; try < 5 && tmux.IsServerGone(err); try++ {
		time.Sleep(100 * time.Millisecond)
		out, err = starter.Run(ctx, cmds[0])
	}
	if err == nil && len(cmds) > 1 {
		var more string
		more, err = r.Client.Run(ctx, cmds[1:]...)
		out += more
	}
	return out, err
}

// createWindowsAndPanes makes the other windows and every other pane. Each split goes after the
// window's first pane, which stays active (-d), so splitting in reverse order leaves the panes in
// saved order.
func (run *restoreRun) createWindowsAndPanes(ctx context.Context) error {
	var cmds []tmux.Cmd
	type want struct{ s, w int } // a line of output: a new window (w ≥ 0, first pane) or a pane
	var wants []want
	var paneWants [][2]int // session, window for each split line
	for i, s := range run.plan.Create {
		sid := run.sessionIDs[i]
		if run.firstIndex[i] != s.Windows[0].Index {
			cmds = append(cmds, tmux.Cmd{"move-window", "-s", run.windows[i][0].windowID, "-t", sid + ":" + strconv.Itoa(s.Windows[0].Index)})
		}
		for j, w := range s.Windows {
			target := sid + ":" + strconv.Itoa(w.Index)
			if j > 0 {
				cmd := tmux.Cmd{"new-window", "-d", "-t", target, "-n", tmuxfmt.Value(w.Name)}
				dir, command := run.paneStart(Target{s.Name, w.Index, 0}, w.Panes[0])
				cmd = append(append(cmd, dir...), "-P", "-F", tmux.Row("#{window_id}", "#{pane_id}"))
				cmds = append(cmds, append(cmd, command...))
				wants = append(wants, want{i, j})
				run.windows[i] = append(run.windows[i], created{session: sid})
			}
			for k := len(w.Panes) - 1; k >= 1; k-- {
				cmd := tmux.Cmd{"split-window", "-d", "-t", target}
				dir, command := run.paneStart(Target{s.Name, w.Index, k}, w.Panes[k])
				cmd = append(append(cmd, dir...), "-P", "-F", "#{pane_id}")
				cmds = append(cmds, append(cmd, command...))
				cmds = append(cmds, tmux.Cmd{"select-layout", "-t", target, "tiled"}) // room for the next
				wants = append(wants, want{i, -1})
				paneWants = append(paneWants, [2]int{i, j})
			}
		}
	}
	out, err := run.r.Client.Run(ctx, cmds...)
	lines := outputLines(out)
	run.madePanes += len(lines)
	if err != nil {
		return err
	}
	if len(lines) != len(wants) {
		return fmt.Errorf("tmux printed %d of %d new windows and panes", len(lines), len(wants))
	}
	// Splits arrive last pane first; collect them, then reverse.
	splits := map[[2]int][]string{}
	si := 0
	for n, wnt := range wants {
		if wnt.w >= 0 {
			f := tmux.DecodeRow(lines[n])
			if len(f) != 2 {
				return fmt.Errorf("unexpected tmux output %q", lines[n])
			}
			run.windows[wnt.s][wnt.w].windowID, run.windows[wnt.s][wnt.w].panes = f[0], []string{f[1]}
			continue
		}
		k := paneWants[si]
		si++
		splits[k] = append(splits[k], lines[n])
	}
	for k, ids := range splits {
		for a, b := 0, len(ids)-1; a < b; a, b = a+1, b-1 {
			ids[a], ids[b] = ids[b], ids[a]
		}
		run.windows[k[0]][k[1]].panes = append(run.windows[k[0]][k[1]].panes, ids...)
	}
	return nil
}

// arrange gives the windows their layouts, names and zoom, the panes their titles, and each
// session its active pane and window.
func (run *restoreRun) arrange(ctx context.Context) error {
	var cmds []tmux.Cmd
	for i, s := range run.plan.Create {
		activeWindow := ""
		for j, w := range s.Windows {
			cw := run.windows[i][j]
			switch {
			case run.plan.Tiled[s.Name][w.Index]:
				cmds = append(cmds, tmux.Cmd{"select-layout", "-t", cw.windowID, "tiled"})
			case w.Layout != "":
				cmds = append(cmds, tmux.Cmd{"select-layout", "-t", cw.windowID, w.Layout})
			}
			cmds = append(cmds, tmux.Cmd{"set-option", "-w", "-t", cw.windowID, "automatic-rename", onOff(w.AutomaticRename)})
			active := cw.panes[0]
			for k, p := range w.Panes {
				if p.Title != "" {
					cmds = append(cmds, tmux.Cmd{"select-pane", "-t", cw.panes[k], "-T", tmuxfmt.Value(p.Title)})
				}
				if p.Active {
					active = cw.panes[k]
				}
			}
			cmds = append(cmds, tmux.Cmd{"select-pane", "-t", active})
			if w.Zoomed && len(w.Panes) > 1 {
				cmds = append(cmds, tmux.Cmd{"resize-pane", "-Z", "-t", active})
			}
			if w.Active || activeWindow == "" {
				activeWindow = cw.windowID
			}
			run.res.Panes += len(cw.panes)
		}
		cmds = append(cmds, tmux.Cmd{"select-window", "-t", activeWindow})
		// new-session -x/-y also set the session's default-size, which the saved session did
		// not have: the windows keep their size, the option goes.
		cmds = append(cmds, tmux.Cmd{"set-option", "-u", "-t", run.sessionIDs[i], "default-size"})
		run.res.Created = append(run.res.Created, s.Name)
	}
	_, err := run.r.Client.Run(ctx, cmds...)
	return err
}

// paneIDs maps each planned pane to the pane tmux made for it.
func (run *restoreRun) paneIDs() map[Target]string {
	paneOf := map[Target]string{}
	for i, s := range run.plan.Create {
		for j, w := range s.Windows {
			for k := range w.Panes {
				paneOf[Target{s.Name, w.Index, k}] = run.windows[i][j].panes[k]
			}
		}
	}
	return paneOf
}

// typeAll waits for each pane's shell to show its prompt (its shell holds the terminal, and the
// cursor has left the top-left corner and stayed put between two looks, so start-up output is
// over), then types the command there and puts the agent's record back on the pane, batching
// every pane that is ready into one tmux call.
func (r *Restorer) typeAll(ctx context.Context, typing []Typing, paneOf map[Target]string, res *Result) error {
	pending := map[string]Typing{}
	for _, t := range typing {
		if id, ok := paneOf[t.Target]; ok {
			pending[id] = t
		}
	}
	deadline := r.Now().Add(r.PromptWait)
	lastCursor := map[string]string{}
	for len(pending) > 0 {
		out, err := r.Client.Run(ctx, tmux.ListAllPanes("#{pane_id} #{pane_pid} #{cursor_x} #{cursor_y} #{pane_dead} #{pane_current_command}"))
		if err != nil {
			return err
		}
		var ready []string
		seen := map[string]bool{}
		for _, l := range outputLines(out) {
			f := strings.SplitN(l, " ", 6)
			if len(f) != 6 {
				continue
			}
			t, ok := pending[f[0]]
			if !ok {
				continue
			}
			seen[f[0]] = true
			if f[4] == "1" {
				res.Notes = append(res.Notes, Note{Target: t.Target.String(), Note: "not typed: the pane's shell exited"})
				delete(pending, f[0])
				continue
			}
			pid, _ := strconv.Atoi(f[1])
			cursor := f[2] + "," + f[3]
			prev := lastCursor[f[0]]
			lastCursor[f[0]] = cursor
			if cursor == "0,0" || cursor != prev {
				continue // nothing drawn yet, or still drawing
			}
			if r.PaintBin != "" && f[5] == filepath.Base(r.PaintBin) {
				continue // still showing the saved contents; the shell comes next
			}
			if front, err := r.ShellInFront(pid); err == nil && front {
				ready = append(ready, f[0])
			}
		}
		for id, t := range pending {
			if !seen[id] {
				res.Notes = append(res.Notes, Note{Target: t.Target.String(), Note: "not typed: the pane closed"})
				delete(pending, id)
			}
		}
		if len(ready) > 0 {
			if err := r.typeBatch(ctx, ready, pending, res); err != nil {
				return err
			}
		}
		if len(pending) == 0 {
			break
		}
		if r.Now().After(deadline) {
			for _, t := range pending {
				res.Notes = append(res.Notes, Note{Target: t.Target.String(), Note: fmt.Sprintf("not typed: the pane's shell showed no prompt within %s", r.PromptWait)})
			}
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	sort.Slice(res.Resumed, func(i, j int) bool { return res.Resumed[i].Target < res.Resumed[j].Target })
	sort.Slice(res.Programs, func(i, j int) bool { return res.Programs[i].Target < res.Programs[j].Target })
	return nil
}

func (r *Restorer) typeBatch(ctx context.Context, ids []string, pending map[string]Typing, res *Result) error {
	sort.Strings(ids)
	var unlocks []func()
	defer func() {
		for _, u := range unlocks {
			u()
		}
	}()
	now := r.Now().UnixMilli()
	var cmds []tmux.Cmd
	typed := ids[:0:0]
	for _, id := range ids {
		t := pending[id]
		argv := t.Program
		if t.Resume != nil {
			argv = t.Resume.Argv
		}
		keys, err := TypeKeys(ctx, r.Client, id, argv)
		if err != nil {
			res.Notes = append(res.Notes, Note{Target: t.Target.String(), Note: "not typed: " + err.Error()})
			delete(pending, id)
			continue
		}
		typed = append(typed, id)
		if t.Resume != nil {
			unlock, err := panestate.Lock(r.LockDir, id)
			if err != nil {
				return err
			}
			unlocks = append(unlocks, unlock)
			cmds = append(cmds, restoredRecordCmds(id, t, now)...)
		}
		cmds = append(cmds, keys...)
	}
	cmds = append(cmds, tmux.SignalCmds(panestate.SignalChannel)...)
	if _, err := r.Client.Run(ctx, cmds...); err != nil {
		return fmt.Errorf("type resume commands: %w", err)
	}
	for _, id := range typed {
		t := pending[id]
		if t.Resume != nil {
			res.Resumed = append(res.Resumed, Resumed{Target: t.Target.String(), PaneID: id, Agent: t.Resume.Agent, Origin: t.Resume.Origin, Command: t.Line})
		} else {
			res.Programs = append(res.Programs, Started{Target: t.Target.String(), PaneID: id, Argv: t.Program, Command: t.Line})
		}
		delete(pending, id)
	}
	return nil
}

// restoredRecordCmds put the agent's record back on a pane whose resume command is typed.
// @agent_restored tells the watcher the record is the restore's, so it is not cleared while the
// shell has not yet started the typed command.
func restoredRecordCmds(id string, t Typing, now int64) []tmux.Cmd {
	rec := RestoredRecord(t.Agent, t.Resume)
	next := panestate.OptionsFromRecord(map[string]string{}, rec, now)
	next[panestate.OptUpdated] = strconv.FormatInt(now, 10)
	next[panestate.OptRestored] = strconv.FormatInt(now, 10)
	return panestate.WriteCmds(id, map[string]string{}, next)
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func outputLines(out string) []string {
	out = strings.TrimSuffix(out, "\n")
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n")
}

// DirExists is the real check of a saved directory.
func DirExists(dir string) bool {
	st, err := os.Stat(dir)
	return err == nil && st.IsDir()
}
