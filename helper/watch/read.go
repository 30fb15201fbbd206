package watch

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"sync"
	"time"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxconf"
)

// The look's first tmux call prints every pane's facts, a marker line, the options of the panes
// that have any, a marker line, every client, and a last marker line carrying the watcher's
// settings. Markers hold a random nonce so no pane row, client row or
// screen line can pass for one.

// clientFields are read for every client in the look's first call.
var clientFields = []string{
	"client_name", "client_tty", "session_id", "pane_id", "client_flags", "client_readonly",
	"client_control_mode",
}

// watchSettings are the settings the watcher re-reads at every look, so a changed value applies
// without a restart.
var watchSettings = []string{tmuxconf.SettingWatchInterval, tmuxconf.SettingRestoreGrace}

func newNonce() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// lookFields are every fact of a pane but those nothing acting on a look uses: its current
// command and directory (tmux reads /proc for each of those for every pane at every look; the
// watcher reads processes itself), its tty, window name, whether it is active and whether its
// session is attached. tmux fills every variable for every pane at every look, so a pane that
// holds nothing of taw's (most panes of a server) gives only what a look needs of it: its process
// and whether it is dead for the probe, its window's last activity for the content, and its
// window and session for the status line's rollups. The rest is Held: only the marked panes'
// rows carry it, and a pane where an agent has just been named is read whole (catchUp).
var lookFields = func() panestate.Selection {
	brief := map[string]bool{"pane_id": true, "pane_pid": true, "pane_dead": true, "window_activity": true, "window_id": true, "session_id": true}
	var s panestate.Selection
	for _, f := range panestate.All.Fields {
		switch {
		case LeftOut[f]:
		case brief[f]:
			s.Fields = append(s.Fields, f)
		default:
			s.Held = append(s.Held, f)
		}
	}
	return s
}()

// lookRows are what the look's first command prints of each pane: lookFields, and for the panes
// marked as holding something of taw's (panestate.OptHeld) the held fields and every option of
// the record and the mark, so writes stay whole. Most panes of a server hold no agent and none
// of taw's options, and an unset option is the dearest variable to fill (tmux looks for it in
// the pane's, window's and session's options and their globals): only the marked panes' rows go
// on past the brief fields.
var lookRows = panestate.Selection{Fields: lookFields.Fields, Held: lookFields.Held, Options: heldOptions}

// fullOptions are the same options of the panes that hold any of the few a pane keeps while it
// holds anything of taw's — the agent, a report's stamp and sequence book, a restore's record, a
// session, a finished turn — marked or not. The first look and every fullEvery-th one read these
// instead, so a pane whose options something else set (a script's set-option, an older taw) is
// marked and read from then on.
var fullOptions = panestate.Selection{
	Options: heldOptions,
	Filter: "#{!=:#{" + strings.Join([]string{
		panestate.OptName, panestate.OptUpdated, panestate.OptSeq, panestate.OptRestored,
		panestate.OptResume, panestate.OptSessionID, panestate.OptDone,
	}, "}#{") + "},}",
}

// fullEvery is how many looks apart the looks that read fullOptions are: half a minute at the
// default interval.
const fullEvery = 30

// heldOptions are every option of the record and the mark.
var heldOptions = append(append([]string(nil), panestate.All.Options...), panestate.OptHeld)

// LeftOut are the variables a look does not read, for a printer of looks to read them itself.
var LeftOut = map[string]bool{
	"pane_current_command": true, "pane_current_path": true, "pane_tty": true, "window_name": true,
	"pane_active": true, "window_active": true, "session_attached": true,
}

var (
	lookParser    = sync.OnceValue(lookRows.Parser)
	optionsParser = sync.OnceValue(fullOptions.Parser)
	// lookFieldsParser reads a look's row that follows a marker on its line.
	lookFieldsParser = sync.OnceValue(lookFields.FieldsParser)
)

// lookCmds is the look's first tmux call. tmux writes every command it runs into the person's
// message log (prefix ~, 1,000 lines), so a look is one command: the panes. full adds the
// options of every pane holding any of taw's, marked or not (fullOptions), and settings the
// watcher's settings; each is a command more, every fullEvery-th look. The clients are read
// only when a look asks whether a pane is in view (Look.InView).
func lookCmds(nonce string, full, settings bool) []tmux.Cmd {
	cmds := []tmux.Cmd{lookRows.ListCmd("")}
	if full {
		cmds = append(cmds, tmux.Cmd{"display-message", "-p", "taw-options-" + nonce}, fullOptions.ListCmd(""))
	}
	if settings {
		names := make([]string, len(watchSettings))
		for i, s := range watchSettings {
			names[i] = tmux.Text(s)
		}
		cmds = append(cmds, tmux.Cmd{"display-message", "-p", tmux.Row(append([]string{"taw-settings-" + nonce}, names...)...)})
	}
	return cmds
}

// clientsCmd lists the attached clients.
func clientsCmd() tmux.Cmd {
	fields := make([]string, len(clientFields))
	for i, f := range clientFields {
		fields[i] = tmux.Text(f)
	}
	return tmux.Cmd{"list-clients", "-F", tmux.Row(fields...)}
}

// parseClients reads what clientsCmd printed.
func parseClients(out string) []Client {
	var clients []Client
	for _, line := range strings.Split(out, "\n") {
		if c, ok := parseClient(line); ok {
			clients = append(clients, c)
		}
	}
	return clients
}

// lookData is what the first call printed.
type lookData struct {
	complete bool // the panes are all there: a marker after them was printed
	panes    []panestate.Pane
	bad      []string // rows that could not be read
	unmarked []string // panes holding taw's options without panestate.OptHeld (full looks)
	settings map[string]string
}

func parseLook(out, nonce string) lookData {
	d := lookData{}
	full := map[string]map[string]string{} // fullOptions' rows
	const (
		panes = iota
		options
		rest
	)
	section := panes
	for _, line := range strings.Split(out, "\n") {
		switch {
		case line == "taw-options-"+nonce:
			section, d.complete = options, true
			continue
		case strings.HasPrefix(line, "taw-settings-"+nonce):
			vals := tmux.DecodeRow(line)[1:]
			d.settings = map[string]string{}
			for i, s := range watchSettings {
				if i < len(vals) {
					d.settings[s] = vals[i]
				}
			}
			section, d.complete = rest, true
			continue
		case strings.HasPrefix(line, "taw-screen-"+nonce+" "):
			// The screens captured in the same call (listPanes) follow the panes.
			section, d.complete = rest, true
			continue
		case line == "" || section == rest:
			continue
		}
		switch section {
		case panes:
			p, err := lookParser()(line)
			if err != nil {
				d.bad = append(d.bad, line)
				continue
			}
			d.panes = append(d.panes, p)
		case options:
			p, err := optionsParser()(line)
			if err != nil {
				d.bad = append(d.bad, line)
				continue
			}
			if p.Options[panestate.OptHeld] == "" && !panestate.HeldNothing(p.Options) {
				d.unmarked = append(d.unmarked, p.ID)
			}
			full[p.ID] = p.Options
		}
	}
	// Most panes hold nothing of taw's: they share one map of empty options, which nothing that
	// reads a look writes to (a write makes a new map).
	var none map[string]string
	for i, p := range d.panes {
		o, ok := full[p.ID]
		switch {
		case ok:
		case !p.Brief():
			o = p.Options
		default:
			if none == nil {
				none = panestate.NoOptions()
			}
			o = none
		}
		// The mark is no part of the record: a pane read for a write has none.
		delete(o, panestate.OptHeld)
		d.panes[i] = p.WithOptions(o)
	}
	return d
}

func parseClient(line string) (Client, bool) {
	f := tmux.DecodeRow(line)
	if len(f) != len(clientFields) || f[2] == "" {
		return Client{}, false // not attached to a session (yet)
	}
	flags := f[4]
	return Client{
		TTY:      f[1],
		Session:  f[2],
		PaneID:   f[3],
		Focused:  flags == "" || hasFlag(flags, "focused"),
		ReadOnly: f[5] == "1" || hasFlag(flags, "read-only"),
		Control:  f[6] == "1" || hasFlag(flags, "control-mode"),
	}, true
}

func hasFlag(flags, want string) bool {
	for _, f := range strings.Split(flags, ",") {
		if f == want {
			return true
		}
	}
	return false
}

// captureCmds captures the visible screens of the panes, each after a marker line naming it.
func captureCmds(nonce string, ids []string) []tmux.Cmd {
	cmds := make([]tmux.Cmd, 0, 2*len(ids))
	for _, id := range ids {
		cmds = append(cmds,
			// display-message passes its text through strftime too, so the % of the id doubles.
			tmux.Cmd{"display-message", "-p", "taw-screen-" + nonce + " " + strings.ReplaceAll(id, "%", "%%")},
			tmux.Cmd{"capture-pane", "-p", "-t", id})
	}
	return cmds
}

// parseCaptures splits what captureCmds printed into each pane's lines. A pane whose capture
// failed has a marker and no lines, and only the last pane printed can be that one.
func parseCaptures(out, nonce string) (screens map[string][]string, order []string) {
	screens = map[string][]string{}
	prefix := "taw-screen-" + nonce + " "
	cur := ""
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, line := range lines {
		if strings.HasPrefix(line, prefix) {
			cur = strings.TrimPrefix(line, prefix)
			order = append(order, cur)
			screens[cur] = nil
			continue
		}
		if cur != "" {
			screens[cur] = append(screens[cur], line)
		}
	}
	return screens, order
}

// parseInterval reads the interval setting: a Go duration, or a number of seconds; bounded to
// 100ms–1m; def when empty or unreadable.
func parseInterval(s string, def time.Duration) (time.Duration, bool) {
	return parseDuration(s, def, 100*time.Millisecond, time.Minute)
}

// ParseGrace reads @agent-wizard-restore-grace as the watcher does: a duration or a number of
// seconds, at most an hour, DefaultGrace when empty or unreadable.
func ParseGrace(s string) time.Duration {
	d, _ := parseDuration(s, DefaultGrace, 0, time.Hour)
	return d
}

func parseDuration(s string, def, min, max time.Duration) (time.Duration, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return def, true
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		if secs, err2 := time.ParseDuration(s + "s"); err2 == nil {
			d, err = secs, nil
		}
	}
	if err != nil {
		return def, false
	}
	// Out of range is refused like a typo, so the default applies as the plugin's load says.
	if d < min || d > max {
		return def, false
	}
	return d, true
}
