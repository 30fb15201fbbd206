package session

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/procinfo"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxconf"
)

// Rows of one capture are marked by a record separator, so a window name or title holding a
// newline cannot split a row. The output is decoded (tmux.Decode) before it is split, since some
// releases print both control bytes as escapes.
const (
	rowMark  = "\x1e"
	fieldSep = tmux.FieldSep
)

// textWindowFields are the window variables whose value is text.
var textWindowFields = map[string]bool{"session_name": true, "window_name": true}

// rowOf is the format of one row of kind: the mark, the kind, then the formats.
func rowOf(kind string, formats ...string) string {
	return rowMark + tmux.Row(append([]string{kind}, formats...)...)
}

// allFields reads a pane's row already decoded and split.
var allFields = panestate.All.FieldsParser()

var windowFields = []string{
	"session_name", "window_index", "window_name", "window_layout", "window_active",
	"window_zoomed_flag", "automatic-rename",
}

// Captured is one read of the server: the document and the backups setting.
type Captured struct {
	Doc     *Document
	Backups int
	Notes   []Note // what the save left out, and why
}

// Front is what a save reads of the program in front of a pane's shell: its argv (nil when the
// shell itself is at its prompt), or why it is not recorded, with the folder of the pane's own
// process to start the pane in instead.
type Front struct {
	Argv    []string
	Refused string
	Dir     string // set with Refused: the pane process's own folder, "" when unknown
}

// ForegroundArgv reads the program in front of a pane's shell; Capture uses procinfo's unless a
// test gives another.
type ForegroundArgv func(panePID int) Front

// ProcForeground is the real ForegroundArgv: the foreground group leader's argv from the process,
// recorded only when it runs as the saving user (real and effective id), since a restore types it
// back as that user: a program of someone else's (after su) is theirs to choose, not ours to run.
func ProcForeground(panePID int) Front {
	if panePID <= 0 {
		return Front{}
	}
	leader, _, shellInFront, err := procinfo.Foreground(panePID)
	if err != nil || shellInFront || len(leader.Argv) == 0 {
		return Front{}
	}
	if refused := notOurs(leader.PID, os.Getuid()); refused != "" {
		f := Front{Refused: "program " + filepath.Base(leader.Argv[0]) + " not saved: " + refused}
		if r, e, err := procinfo.Owner(panePID); err == nil && r == os.Getuid() && e == r {
			f.Dir, _ = os.Readlink(fmt.Sprintf("/proc/%d/cwd", panePID))
		}
		return f
	}
	return Front{Argv: leader.Argv}
}

// notOurs says why process pid does not count as the user uid's, "" when it does.
func notOurs(pid, uid int) string {
	r, e, err := procinfo.Owner(pid)
	switch {
	case err != nil:
		return "its owner could not be read (" + err.Error() + ")"
	case r != uid || e != uid:
		return fmt.Sprintf("it runs as another user (real id %d, effective id %d; yours is %d)", r, e, uid)
	}
	return ""
}

// Capture reads every session, window and pane of the server, with taw's agent facts, in one tmux
// call; then each pane's program from its process, and, when @agent-wizard-save-pane-contents is
// on, every pane's contents in a second call.
func Capture(ctx context.Context, c *tmux.Client, now time.Time, origin string) (*Captured, error) {
	wf := make([]string, len(windowFields))
	for i, f := range windowFields {
		wf[i] = tmux.Plain(f)
		if textWindowFields[f] {
			wf[i] = tmux.Text(f)
		}
	}
	out, err := c.Run(ctx,
		tmux.Cmd{"list-windows", "-a", "-F", rowOf("W", wf...)},
		panestate.ListCmd(rowOf("P")+fieldSep),
		tmux.Cmd{"display-message", "-p", rowOf("S", tmux.Text(tmuxconf.SettingSessionBackups),
			tmux.Text(SettingSavePaneContents), tmux.Text(SettingPaneContentsLines), tmux.Text(SettingRestoreVimSessions))},
	)
	if err != nil {
		// tmux 3.3 answers "no current target" to list-windows -a on a server with no session
		// (exit-empty off): that server is empty, not broken.
		if empty, backups := emptyServer(ctx, c); empty {
			return &Captured{Doc: Build(nil, nil, now, origin), Backups: backups}, nil
		}
		return nil, err
	}
	var windows [][]string
	var panes []panestate.Pane
	backups := DefaultBackups
	contentsOn, lines, vimSessions := false, DefaultPaneContentsLines, false
	for _, row := range strings.Split(tmux.Decode(out), rowMark) {
		row = strings.TrimSuffix(row, "\n")
		kind, rest, ok := strings.Cut(row, fieldSep)
		if !ok {
			continue
		}
		switch kind {
		case "W":
			f := strings.Split(rest, fieldSep)
			if len(f) != len(windowFields) {
				return nil, fmt.Errorf("read windows: %d fields where %d were expected", len(f), len(windowFields))
			}
			windows = append(windows, f)
		case "P":
			p, err := allFields(strings.Split(rest, fieldSep))
			if err != nil {
				return nil, err
			}
			panes = append(panes, p)
		case "S":
			f := strings.Split(rest, fieldSep)
			if n, err := strconv.Atoi(strings.TrimSpace(f[0])); err == nil && n >= 0 && n <= MaxBackups {
				backups = n
			}
			if len(f) == 4 {
				contentsOn = isOn(f[1])
				lines = ContentsLines(f[2])
				vimSessions = isOn(f[3])
			}
		}
	}
	for i, p := range panes {
		// tmux reads a pane's folder from its foreground process group, which a pane that
		// has just been made does not have yet: its first process is already in the folder.
		if p.Cwd == "" && p.PID > 0 {
			if dir, err := procinfo.Cwd(p.PID); err == nil {
				panes[i].Cwd = dir
			}
		}
	}
	doc := Build(windows, panes, now, origin)
	programs := map[paneKey]*Program{}
	foreign := map[paneKey]Front{}
	var notes []Note
	for _, p := range panes {
		f := foreground(p.PID)
		switch {
		case f.Refused != "":
			foreign[keyOf(p)] = f
			notes = append(notes, Note{Target: fmt.Sprintf("%s:%d.%d", p.SessionName, p.WindowIndex, p.PaneIndex), Note: f.Refused})
		case f.Argv != nil:
			prog := &Program{Argv: f.Argv, Dir: p.Cwd}
			if vimSessions {
				if note := prog.recordVimSession(os.Getuid()); note != "" {
					notes = append(notes, Note{Target: fmt.Sprintf("%s:%d.%d", p.SessionName, p.WindowIndex, p.PaneIndex), Note: note})
				}
			}
			programs[keyOf(p)] = prog
		}
	}
	doc.eachPane(func(k paneKey, sp *Pane) {
		sp.Program = programs[k]
		if f, ok := foreign[k]; ok {
			// The folder tmux names is the other user's program's: the pane starts in its own
			// process's folder instead.
			sp.Dir = f.Dir
		}
	})
	if contentsOn {
		if err := captureContents(ctx, c, doc, panes, lines); err != nil {
			return nil, err
		}
	}
	return &Captured{Doc: doc, Backups: backups, Notes: notes}, nil
}

// foreground is the ForegroundArgv captures use; a test may swap it.
var foreground ForegroundArgv = ProcForeground

// paneKey names a pane by its session, window index and pane index, in a capture and a document.
type paneKey struct {
	session       string
	window, index int
}

func keyOf(p panestate.Pane) paneKey { return paneKey{p.SessionName, p.WindowIndex, p.PaneIndex} }

// eachPane calls f for every pane of the document.
func (d *Document) eachPane(f func(k paneKey, p *Pane)) {
	for si := range d.Sessions {
		s := &d.Sessions[si]
		for wi := range s.Windows {
			w := &s.Windows[wi]
			for pi := range w.Panes {
				f(paneKey{s.Name, w.Index, w.Panes[pi].Index}, &w.Panes[pi])
			}
		}
	}
}

func isOn(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "on", "yes", "true", "1":
		return true
	}
	return false
}

// ContentsLines reads the lines setting: how many lines of scrollback a save keeps beside the
// visible screen; bad values fall back to the default.
func ContentsLines(v string) int {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 {
		return DefaultPaneContentsLines
	}
	return min(n, MaxPaneContentsLines)
}

// captureContents reads every pane's screen and scrollback in one tmux call: each capture follows
// a mark line naming its pane. The mark is plain text holding a random nonce, so no screen can
// show one (a control byte would not do: some releases print it as text, which a screen can
// hold), and captures print as they are on every release.
func captureContents(ctx context.Context, c *tmux.Client, doc *Document, panes []panestate.Pane, lines int) error {
	nonce := make([]byte, 8)
	_, _ = rand.Read(nonce)
	mark := "taw-contents-" + hex.EncodeToString(nonce) + " "
	var cmds []tmux.Cmd
	for _, p := range panes {
		cmds = append(cmds,
			// display-message passes its text through strftime too, so the % of the id doubles.
			tmux.Cmd{"display-message", "-p", "-t", p.ID, mark + strings.ReplaceAll(p.ID, "%", "%%")},
			tmux.Cmd{"capture-pane", "-p", "-e", "-t", p.ID, "-S", "-" + strconv.Itoa(lines)})
	}
	if len(cmds) == 0 {
		return nil
	}
	out, err := c.Run(ctx, cmds...)
	if err != nil {
		return fmt.Errorf("read pane contents: %w", err)
	}
	byID := map[string][]byte{}
	// Each part is a pane's id, then its lines; the split took the newline ending the last line
	// of every part but the last.
	parts := strings.Split("\n"+out, "\n"+mark)
	for i, part := range parts[1:] {
		id, body, ok := strings.Cut(part, "\n")
		if ok && i < len(parts)-2 {
			body += "\n"
		}
		byID[strings.TrimSpace(id)] = CompressContents([]byte(body))
	}
	at := map[paneKey][]byte{}
	for _, p := range panes {
		at[keyOf(p)] = byID[p.ID]
	}
	doc.eachPane(func(k paneKey, sp *Pane) { sp.Contents = at[k] })
	return nil
}

// Build assembles a document from list-windows rows (windowFields) and the panes.
func Build(windows [][]string, panes []panestate.Pane, now time.Time, origin string) *Document {
	d := &Document{Format: FormatName, Version: Version, SavedAt: now.UTC().Truncate(time.Millisecond), Origin: origin}
	type key struct {
		session string
		index   int
	}
	byWindow := map[key][]Pane{}
	for _, p := range panes {
		sp := Pane{Index: p.PaneIndex, Dir: p.Cwd, Title: p.Title, Active: p.PaneActive, Command: p.Command}
		sp.Agent = agentFromRecord(p.Agent(), p.Record())
		k := key{p.SessionName, p.WindowIndex}
		byWindow[k] = append(byWindow[k], sp)
	}
	sessionAt := map[string]int{}
	for _, f := range windows {
		idx, _ := strconv.Atoi(f[1])
		w := Window{
			Index: idx, Name: f[2], Layout: f[3], Active: f[4] == "1", Zoomed: f[5] == "1",
			AutomaticRename: f[6] == "1" || f[6] == "on",
			Panes:           byWindow[key{f[0], idx}],
		}
		sort.SliceStable(w.Panes, func(i, j int) bool { return w.Panes[i].Index < w.Panes[j].Index })
		if len(w.Panes) == 0 {
			continue // a window that closed between the two lists
		}
		i, ok := sessionAt[f[0]]
		if !ok {
			i = len(d.Sessions)
			sessionAt[f[0]] = i
			d.Sessions = append(d.Sessions, Session{Name: f[0]})
		}
		d.Sessions[i].Windows = append(d.Sessions[i].Windows, w)
	}
	if d.Sessions == nil {
		d.Sessions = []Session{}
	}
	return d
}

// emptyServer says whether the server runs with no session at all, and its backups setting.
func emptyServer(ctx context.Context, c *tmux.Client) (bool, int) {
	out, err := c.Run(ctx, tmux.Cmd{"list-sessions", "-F", "#{session_id}"}, tmux.Cmd{"show-options", "-gqv", tmuxconf.SettingSessionBackups})
	if err != nil {
		return false, 0
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) > 1 || strings.HasPrefix(lines[0], "$") {
		return false, 0
	}
	backups := DefaultBackups
	if n, err := strconv.Atoi(strings.TrimSpace(lines[0])); err == nil && n >= 0 {
		backups = min(n, MaxBackups)
	}
	return true, backups
}

// emptyLive is a server with no session as a restore sees it: its settings read from the global
// options (no format can be filled without a session).
func emptyLive(ctx context.Context, c *tmux.Client) Live {
	live := Live{Sessions: map[string]bool{}}
	v, err := c.GlobalOptions(ctx, SettingRestorePrograms, SettingResurrectProcesses, "default-shell", "default-command", SettingRestoreVimSessions)
	if err != nil {
		v = make([]string, 5)
	}
	live.Programs = ParsePrograms(v[0], v[1])
	live.Shell, live.ShellCommand = v[2], v[3]
	live.VimSessions = isOn(v[4])
	return live
}
