package session

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxconf"
)

// Restore on start: when a server starts with the plugin and holds nothing but its first,
// untouched session, the newest save (the autosave's default) comes back by itself, once.

// SettingRestoredOnStart is set by the restore on start (server option): what it restored. It is
// also what keeps a second load of the plugin from restoring again in the same server.
const SettingRestoredOnStart = tmuxconf.RestoredOption

// OnStartMode is what @agent-wizard-restore-on-start asks for.
type OnStartMode int

const (
	OnStartOff     OnStartMode = iota
	OnStartOn                  // restore beside the first session
	OnStartReplace             // restore, then the untouched first session goes
)

// ParseOnStart reads the setting; anything but on or replace is off.
func ParseOnStart(v string) OnStartMode {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "on", "yes", "true", "1":
		return OnStartOn
	case restoreOnStartReplaceValue:
		return OnStartReplace
	}
	return OnStartOff
}

// MaxStartAge is how long after the server started a restore on start may still begin: later,
// the person has been using the server and its one session is theirs.
const MaxStartAge = time.Minute

// StartState is what the restore on start looks at before it does anything.
type StartState struct {
	ServerStarted time.Time
	Restored      string // SettingRestoredOnStart: set once a restore on start began
	Sessions      []StartSession
}

// StartSession is one session of a starting server.
type StartSession struct {
	ID, Name string
	Windows  int
	Panes    []StartPane
}

// StartPane is one pane of a starting server.
type StartPane struct {
	PID     int
	History int // lines scrolled off: 0 for a pane nobody has used
}

// DecideOnStart says whether a restore on start goes ahead in a server in state st, and why not:
// only once per server, soon after it started, and only while it holds one session of one
// window of one pane that nothing has scrolled yet and whose shell is at its prompt (atPrompt).
func DecideOnStart(st StartState, now time.Time, atPrompt func(pid int) bool) (bool, string) {
	switch {
	case st.Restored != "":
		return false, "this server was restored on start already"
	case st.ServerStarted.IsZero() || now.Sub(st.ServerStarted) > MaxStartAge:
		return false, fmt.Sprintf("the server started more than %s ago", MaxStartAge)
	case len(st.Sessions) == 0:
		return false, "the server holds no session yet"
	case len(st.Sessions) > 1:
		return false, "the server holds sessions of yours already"
	}
	s := st.Sessions[0]
	if s.Windows != 1 || len(s.Panes) != 1 {
		return false, "the first session has been changed (more than one window or pane)"
	}
	p := s.Panes[0]
	if p.History > 0 || (atPrompt != nil && !atPrompt(p.PID)) {
		return false, "the first session's pane is in use"
	}
	return true, ""
}

// ReadStartState reads what DecideOnStart needs in one tmux call.
func ReadStartState(ctx context.Context, c *tmux.Client) (StartState, error) {
	out, err := c.Run(ctx,
		tmux.Cmd{"display-message", "-p", rowOf("T", "#{start_time}", tmux.Text(SettingRestoredOnStart))},
		tmux.Cmd{"list-sessions", "-F", rowOf("S", "#{session_id}", "#{session_windows}", tmux.Text("session_name"))},
		tmux.ListAllPanes(rowOf("P", "#{session_id}", "#{pane_pid}", "#{history_size}")),
	)
	if err != nil {
		return StartState{}, err
	}
	var st StartState
	at := map[string]int{}
	for _, row := range strings.Split(tmux.Decode(out), rowMark) {
		f := strings.Split(strings.TrimSuffix(row, "\n"), fieldSep)
		switch {
		case f[0] == "T" && len(f) == 3:
			if n, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				st.ServerStarted = time.Unix(n, 0)
			}
			st.Restored = f[2]
		case f[0] == "S" && len(f) == 4:
			n, _ := strconv.Atoi(f[2])
			at[f[1]] = len(st.Sessions)
			st.Sessions = append(st.Sessions, StartSession{ID: f[1], Name: f[3], Windows: n})
		case f[0] == "P" && len(f) == 4:
			if i, ok := at[f[1]]; ok {
				pid, _ := strconv.Atoi(f[2])
				h, _ := strconv.Atoi(f[3])
				st.Sessions[i].Panes = append(st.Sessions[i].Panes, StartPane{PID: pid, History: h})
			}
		}
	}
	return st, nil
}

// OnStartSummary is what the restore on start says it did.
func OnStartSummary(name string, d *Document, res Result, replaced string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "taw restored save %q of %s: ", name, d.SavedAt.Local().Format("2006-01-02 15:04"))
	if len(res.Created) == 0 {
		b.WriteString("nothing, every saved session exists")
	} else {
		fmt.Fprintf(&b, "%s (%d panes)", strings.Join(res.Created, ", "), res.Panes)
	}
	if n := len(res.Resumed); n > 0 {
		fmt.Fprintf(&b, ", %d agents resumed", n)
	}
	if n := len(res.Programs); n > 0 {
		fmt.Fprintf(&b, ", %d programs started", n)
	}
	if res.Painted > 0 {
		fmt.Fprintf(&b, ", %d panes show their saved contents", res.Painted)
	}
	if replaced != "" {
		fmt.Fprintf(&b, "; session %s replaced", replaced)
	}
	for _, n := range res.Notes {
		if n.Target != "" {
			fmt.Fprintf(&b, "; %s: %s", n.Target, n.Note)
		} else {
			fmt.Fprintf(&b, "; %s", n.Note)
		}
	}
	return b.String()
}
