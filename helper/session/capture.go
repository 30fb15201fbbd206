package session

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxconf"
)

// Rows of one capture are marked by a record separator, so a window name or title holding a
// newline cannot split a row.
const (
	rowMark  = "\x1e"
	fieldSep = "\x1f"
)

var windowFields = []string{
	"session_name", "window_index", "window_name", "window_layout", "window_active",
	"window_zoomed_flag", "automatic-rename",
}

// Captured is one read of the server: the document and the backups setting.
type Captured struct {
	Doc     *Document
	Backups int
}

// Capture reads every session, window and pane of the server, with taw's agent facts, in one tmux
// call.
func Capture(ctx context.Context, c *tmux.Client, now time.Time, origin string) (*Captured, error) {
	wf := make([]string, len(windowFields))
	for i, f := range windowFields {
		wf[i] = "#{" + f + "}"
	}
	out, err := c.Run(ctx,
		tmux.Cmd{"list-windows", "-a", "-F", rowMark + "W" + fieldSep + strings.Join(wf, fieldSep)},
		panestate.ListCmd(rowMark+"P"+fieldSep),
		tmux.Cmd{"display-message", "-p", rowMark + "S" + fieldSep + "#{" + tmuxconf.SettingSessionBackups + "}"},
	)
	if err != nil {
		return nil, err
	}
	var windows [][]string
	var panes []panestate.Pane
	backups := DefaultBackups
	for _, row := range strings.Split(out, rowMark) {
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
			p, err := panestate.ParseRow(rest)
			if err != nil {
				return nil, err
			}
			panes = append(panes, p)
		case "S":
			if n, err := strconv.Atoi(strings.TrimSpace(rest)); err == nil && n >= 0 && n <= MaxBackups {
				backups = n
			}
		}
	}
	return &Captured{Doc: Build(windows, panes, now, origin), Backups: backups}, nil
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
