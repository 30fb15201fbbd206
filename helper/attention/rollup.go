package attention

import (
	"context"
	"strconv"
	"strings"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmux"
)

// Options taw publishes for status lines. Window and session ones are set on that window or
// session; the others are global (set -g), so any format finds them.
const (
	OptWindowState  = "@agent_window_state"  // most urgent state of the window's agents
	OptWindowBadge  = "@agent_window_badge"  // its icon, styled
	OptSessionState = "@agent_session_state" // most urgent state of the session's agents
	OptSessionBadge = "@agent_session_badge"

	OptServerState = "@agent-wizard-state"   // most urgent state of every agent of the server
	OptSummary     = "@agent-wizard-summary" // styled counts, e.g. "#[fg=red]!1#[fg=default] ●2"
	OptSummaryText = "@agent-wizard-summary-plain"
	OptCountPrefix = "@agent-wizard-count-" // + blocked, done, working, idle, unknown, agents
)

// GlobalOptions are every global option the rollup writes.
func GlobalOptions() []string {
	opts := []string{OptServerState, OptSummary, OptSummaryText, OptCountPrefix + "agents"}
	for _, s := range States {
		opts = append(opts, OptCountPrefix+s)
	}
	return opts
}

// Published is what the rollup last wrote: window id → state, session id → state, global
// option → value. A badge always follows its state, so only the state is kept.
type Published struct {
	Windows  map[string]string
	Sessions map[string]string
	Global   map[string]string
}

// Rollup is what the options should say for a set of panes.
func Rollup(panes []panestate.Pane) Published {
	r := Published{Windows: map[string]string{}, Sessions: map[string]string{}, Global: map[string]string{}}
	counts := map[string]int{}
	seen := map[string]bool{}
	server := ""
	for _, p := range panes {
		s := Shown(p)
		if s == "" {
			continue
		}
		if Rank(s) > Rank(r.Windows[p.WindowID]) {
			r.Windows[p.WindowID] = s
		}
		if Rank(s) > Rank(r.Sessions[p.SessionID]) {
			r.Sessions[p.SessionID] = s
		}
		// A window linked into several sessions lists its panes once per session.
		if seen[p.ID] {
			continue
		}
		seen[p.ID] = true
		counts[s]++
		if Rank(s) > Rank(server) {
			server = s
		}
	}
	total := 0
	for _, s := range States {
		r.Global[OptCountPrefix+s] = strconv.Itoa(counts[s])
		total += counts[s]
	}
	r.Global[OptCountPrefix+"agents"] = strconv.Itoa(total)
	r.Global[OptServerState] = server
	r.Global[OptSummary], r.Global[OptSummaryText] = Summary(counts)
	return r
}

// Summary is the server's counts as a status line shows them, styled and plain: one icon and
// count per state that has agents, most urgent first ("!1 ✓2 ●3 ○1"); empty with no agents.
func Summary(counts map[string]int) (styled, plain string) {
	var st, pl []string
	for _, s := range States {
		n := counts[s]
		if n == 0 {
			continue
		}
		text := Icon(s) + strconv.Itoa(n)
		pl = append(pl, text)
		if c := Colour(s); c != "" {
			text = "#[fg=" + c + "]" + text + "#[fg=default]"
		}
		st = append(st, text)
	}
	return strings.Join(st, " "), strings.Join(pl, " ")
}

// Changes are the tmux commands that turn the published options from old into new.
func Changes(old, new Published) []tmux.Cmd {
	cmds := scopeChanges(old.Windows, new.Windows, "-wq", "-wqu", OptWindowState, OptWindowBadge)
	cmds = append(cmds, scopeChanges(old.Sessions, new.Sessions, "-q", "-qu", OptSessionState, OptSessionBadge)...)
	for _, k := range GlobalOptions() {
		v := new.Global[k]
		if old.Global[k] == v {
			continue
		}
		if v == "" {
			cmds = append(cmds, tmux.Cmd{"set-option", "-gqu", k})
		} else {
			cmds = append(cmds, tmux.Cmd{"set-option", "-gq", k, v})
		}
	}
	// old must hold only windows and sessions that still exist (see Existing): unsetting an
	// option of a closed one would fail the whole call.
	return cmds
}

// scopeChanges are the commands that turn the states of one scope (window or session id → state)
// from old into new: set and unset are set-option's flags for that scope.
func scopeChanges(old, new map[string]string, set, unset, stateOpt, badgeOpt string) []tmux.Cmd {
	var cmds []tmux.Cmd
	for id, s := range new {
		if old[id] != s {
			cmds = append(cmds,
				tmux.Cmd{"set-option", set, "-t", id, stateOpt, s},
				tmux.Cmd{"set-option", set, "-t", id, badgeOpt, Badge(s)})
		}
	}
	for id := range old {
		if _, ok := new[id]; !ok {
			cmds = append(cmds,
				tmux.Cmd{"set-option", unset, "-t", id, stateOpt},
				tmux.Cmd{"set-option", unset, "-t", id, badgeOpt})
		}
	}
	return cmds
}

// Existing is p without the windows and sessions that none of panes is in any more.
func (p Published) Existing(panes []panestate.Pane) Published {
	windows, sessions := map[string]bool{}, map[string]bool{}
	for _, pane := range panes {
		windows[pane.WindowID], sessions[pane.SessionID] = true, true
	}
	out := Published{Windows: map[string]string{}, Sessions: map[string]string{}, Global: p.Global}
	for id, s := range p.Windows {
		if windows[id] {
			out.Windows[id] = s
		}
	}
	for id, s := range p.Sessions {
		if sessions[id] {
			out.Sessions[id] = s
		}
	}
	return out
}

// ReadPublished reads what the options say now, in one tmux call.
func ReadPublished(ctx context.Context, c *tmux.Client) (Published, error) {
	global := GlobalOptions()
	parts := make([]string, len(global))
	for i, k := range global {
		parts[i] = tmux.Text(k)
	}
	out, err := c.Run(ctx,
		tmux.Cmd{"list-windows", "-a", "-F", tmux.Row("W", "#{window_id}", tmux.Text(OptWindowState))},
		tmux.Cmd{"list-sessions", "-F", tmux.Row("S", "#{session_id}", tmux.Text(OptSessionState))},
		tmux.Cmd{"display-message", "-p", tmux.Row(append([]string{"G"}, parts...)...)})
	if err != nil {
		return Published{}, err
	}
	p := Published{Windows: map[string]string{}, Sessions: map[string]string{}, Global: map[string]string{}}
	for _, line := range strings.Split(out, "\n") {
		f := tmux.DecodeRow(line)
		switch {
		case f[0] == "W" && len(f) == 3 && f[2] != "":
			p.Windows[f[1]] = f[2]
		case f[0] == "S" && len(f) == 3 && f[2] != "":
			p.Sessions[f[1]] = f[2]
		case f[0] == "G" && len(f) == len(global)+1:
			for i, k := range global {
				if f[i+1] != "" {
					p.Global[k] = f[i+1]
				}
			}
		}
	}
	return p, nil
}

// Clear removes every option the rollup wrote, and done from every pane, in one tmux call.
func Clear(ctx context.Context, c *tmux.Client) error {
	pub, err := ReadPublished(ctx, c)
	if err != nil {
		return err
	}
	cmds := Changes(pub, Published{})
	out, err := c.Output(ctx, listDone("")...)
	if err != nil {
		return err
	}
	for _, line := range strings.Split(out, "\n") {
		if f := tmux.DecodeRow(line); len(f) == 2 && f[1] != "" {
			id := f[0]
			cmds = append(cmds, tmux.Cmd{"set-option", "-pqu", "-t", id, panestate.OptDone})
		}
	}
	if len(cmds) == 0 {
		return nil
	}
	_, err = c.Run(ctx, cmds...)
	return err
}
