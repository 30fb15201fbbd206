package session

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/xdg"
)

// ResurrectFile is where tmux-resurrect keeps its newest save: ~/.tmux/resurrect/last when that
// folder exists, else $XDG_DATA_HOME/tmux/resurrect/last.
func ResurrectFile(getenv func(string) string, exists func(string) bool) string {
	home := getenv("HOME")
	if old := filepath.Join(home, ".tmux", "resurrect"); exists(old) {
		return filepath.Join(old, "last")
	}
	return filepath.Join(xdg.DataHome(getenv), "tmux", "resurrect", "last")
}

// ImportSource is the source an imported agent session is credited to.
const ImportSource = "import:resurrect"

// ParseResurrect reads a tmux-resurrect save file: tab-separated lines, one per pane and one per
// window, in both the layout before pane titles were saved (the window name on pane lines) and
// the one after. Nullable fields carry a leading ":". A pane whose saved command is an agent's own
// resume command (claude --resume ID) gets that agent session, so the restore resumes it.
func ParseResurrect(r io.Reader, now time.Time) (*Document, []Note, error) {
	type winKey struct {
		session string
		index   int
	}
	windows := map[winKey]*Window{}
	var order []string
	seenSession := map[string]bool{}
	var notes []Note
	win := func(s string, idx int) *Window {
		k := winKey{s, idx}
		if w, ok := windows[k]; ok {
			return w
		}
		if !seenSession[s] {
			seenSession[s] = true
			order = append(order, s)
		}
		w := &Window{Index: idx, AutomaticRename: true}
		windows[k] = w
		return w
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	line := 0
	for sc.Scan() {
		line++
		f := strings.Split(strings.TrimRight(sc.Text(), "\r"), "\t")
		bad := func(why string) error {
			return &DocumentError{fmt.Sprintf("not a tmux-resurrect save: line %d: %s", line, why)}
		}
		switch f[0] {
		case "pane":
			if len(f) < 11 {
				return nil, nil, bad(fmt.Sprintf("a pane line has %d fields, want 11", len(f)))
			}
			idx, err1 := strconv.Atoi(f[2])
			var p Pane
			var w *Window
			var err2 error
			if strings.HasPrefix(f[3], ":") { // before titles: name, active, flags, index, dir, …
				w = win(f[1], idx)
				if w.Name == "" {
					w.Name = f[3][1:]
				}
				p.Index, err2 = strconv.Atoi(f[6])
				p.Dir, p.Active, p.Command = unescapeDir(f[7]), f[8] == "1", f[9]
			} else { // active, flags, index, title, dir, …
				w = win(f[1], idx)
				p.Index, err2 = strconv.Atoi(f[5])
				p.Title, p.Dir, p.Active, p.Command = f[6], unescapeDir(f[7]), f[8] == "1", f[9]
			}
			if err1 != nil || err2 != nil {
				return nil, nil, bad("a window or pane index is not a number")
			}
			full := strings.TrimPrefix(f[10], ":")
			if full != "" {
				p.Command = full
			}
			p.Agent = agentFromCommand(full)
			// resurrect kept the command line as ps printed it, its words joined by spaces: the
			// words are all that is left of its argv.
			if words := strings.Fields(full); len(words) > 0 {
				p.Program = &Program{Argv: words, Dir: p.Dir}
			}
			w.Panes = append(w.Panes, p)
		case "window":
			if len(f) < 6 {
				return nil, nil, bad(fmt.Sprintf("a window line has %d fields, want 6 or more", len(f)))
			}
			idx, err := strconv.Atoi(f[2])
			if err != nil {
				return nil, nil, bad("a window index is not a number")
			}
			w := win(f[1], idx)
			var active, flags, layout string
			if strings.HasPrefix(f[3], ":") && len(f) >= 7 { // :name, active, :flags, layout, automatic-rename
				w.Name, active, flags, layout = f[3][1:], f[4], f[5], f[6]
				if len(f) >= 8 {
					w.AutomaticRename = f[7] != "off"
				}
			} else { // active, :flags, layout; that restore named windows for good
				active, flags, layout = f[3], f[4], f[5]
				w.AutomaticRename = false
			}
			w.Active, w.Zoomed, w.Layout = active == "1", strings.Contains(flags, "Z"), layout
		case "grouped_session":
			if len(f) > 1 {
				notes = append(notes, Note{Target: f[1], Note: "grouped session imported as a session of its own"})
			}
		case "state", "":
		default:
			return nil, nil, bad(fmt.Sprintf("unknown line type %q", f[0]))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("read tmux-resurrect save: %w", err)
	}
	d := &Document{Format: FormatName, Version: Version, SavedAt: now.UTC().Truncate(time.Millisecond), Origin: "import-resurrect", Sessions: []Session{}}
	for _, name := range order {
		s := Session{Name: name}
		for k, w := range windows {
			if k.session == name && len(w.Panes) > 0 {
				s.Windows = append(s.Windows, *w)
			}
		}
		if len(s.Windows) == 0 {
			continue
		}
		d.Sessions = append(d.Sessions, sortedSession(s))
	}
	sort.SliceStable(d.Sessions, func(i, j int) bool { return d.Sessions[i].Name < d.Sessions[j].Name })
	if err := d.Check(); err != nil {
		return nil, nil, err
	}
	return d, notes, nil
}

// unescapeDir undoes the escaping tmux-resurrect gives a directory: a leading ":" and "\ " for
// spaces.
func unescapeDir(s string) string {
	return strings.ReplaceAll(strings.TrimPrefix(s, ":"), `\ `, " ")
}

// agentFromCommand names the agent a saved command line ran, and its session when the line is
// the agent's own resume command as taw would type it.
func agentFromCommand(full string) *Agent {
	words := strings.Fields(full)
	if len(words) == 0 {
		return nil
	}
	a, ok := agents.ByProgram(filepath.Base(words[0]))
	if !ok {
		return nil
	}
	out := &Agent{Name: a.ID, Detected: a.ID}
	id := words[len(words)-1]
	if eq := strings.Index(id, "="); eq >= 0 {
		id = id[eq+1:]
	}
	if own := OwnResume(a.ID, id, ""); own != nil && strings.Join(own, " ") == strings.Join(append([]string{filepath.Base(words[0])}, words[1:]...), " ") {
		out.SessionID, out.SessionSource, out.SessionAgent = id, ImportSource, a.ID
	}
	return out
}
