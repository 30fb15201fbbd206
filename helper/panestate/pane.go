package panestate

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
)

// Pane is one tmux pane with taw's facts about it.
type Pane struct {
	ID              string // %N
	SessionName     string
	SessionID       string // $N
	WindowID        string // @N
	WindowIndex     int
	WindowName      string
	PaneIndex       int
	Cwd             string
	Command         string // pane_current_command
	PID             int    // pane_pid: the pane's first process, usually its shell
	TTY             string
	Title           string
	PaneActive      bool
	WindowActive    bool
	SessionAttached bool
	Dead            bool
	Width, Height   int
	Activity        int64 // window_activity: unix seconds of the window's last output
	HistorySize     int
	CursorX         int
	CursorY         int
	AltScreen       bool

	Options map[string]string // every option in Options, "" when unset

	// partial says the pane was read with a selection that leaves out options: Commit refuses it,
	// since the options it did not read would look unset and be overwritten.
	partial bool
	// brief says the pane's row stopped before its selection's Held fields: it is not marked
	// OptHeld, and those fields read as zero.
	brief bool
}

// Brief says the pane was read without its selection's Held fields (see Selection.Held).
func (p Pane) Brief() bool { return p.brief }

// Record is the contract's record held in the pane's options.
func (p Pane) Record() report.Record { return RecordFromOptions(p.Options) }

// Agent and State are the effective ones, as stored.
func (p Pane) Agent() string { return p.Options[OptName] }
func (p Pane) State() string { return p.Options[OptState] }

// HookMessage is what the hook holding the pane said the agent is blocked on, "" unless a hook
// holds it and reported blocked.
func (p Pane) HookMessage() string {
	if p.Options[OptReportedState] != report.StateBlocked || p.Options[OptSource] == "" {
		return ""
	}
	return p.Options[OptMessage]
}

// Target is session:window.pane, the address people type.
func (p Pane) Target() string {
	return fmt.Sprintf("%s:%d.%d", p.SessionName, p.WindowIndex, p.PaneIndex)
}

const sep = tmux.FieldSep

// paneField is one tmux format variable of a pane and where its value goes.
type paneField struct {
	name string
	set  func(p *Pane, v string)
}

// textFields are the variables whose value is text that may hold a backslash; every option is
// too. The others are numbers and ids, printed plain (tmux.Text costs the server more).
var textFields = map[string]bool{
	"session_name": true, "window_name": true, "pane_current_path": true,
	"pane_current_command": true, "pane_title": true, "pane_tty": true,
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

var paneFields = []paneField{
	{"pane_id", func(p *Pane, v string) { p.ID = v }},
	{"session_name", func(p *Pane, v string) { p.SessionName = v }},
	{"session_id", func(p *Pane, v string) { p.SessionID = v }},
	{"window_id", func(p *Pane, v string) { p.WindowID = v }},
	{"window_index", func(p *Pane, v string) { p.WindowIndex = atoi(v) }},
	{"window_name", func(p *Pane, v string) { p.WindowName = v }},
	{"pane_index", func(p *Pane, v string) { p.PaneIndex = atoi(v) }},
	{"pane_current_path", func(p *Pane, v string) { p.Cwd = v }},
	{"pane_current_command", func(p *Pane, v string) { p.Command = v }},
	{"pane_pid", func(p *Pane, v string) { p.PID = atoi(v) }},
	{"pane_tty", func(p *Pane, v string) { p.TTY = v }},
	{"pane_title", func(p *Pane, v string) { p.Title = v }},
	{"pane_active", func(p *Pane, v string) { p.PaneActive = v == "1" }},
	{"window_active", func(p *Pane, v string) { p.WindowActive = v == "1" }},
	{"session_attached", func(p *Pane, v string) { p.SessionAttached = v != "" && v != "0" }},
	{"pane_dead", func(p *Pane, v string) { p.Dead = v == "1" }},
	{"pane_width", func(p *Pane, v string) { p.Width = atoi(v) }},
	{"pane_height", func(p *Pane, v string) { p.Height = atoi(v) }},
	{"window_activity", func(p *Pane, v string) { p.Activity = int64(atoi(v)) }},
	{"history_size", func(p *Pane, v string) { p.HistorySize = atoi(v) }},
	{"cursor_x", func(p *Pane, v string) { p.CursorX = atoi(v) }},
	{"cursor_y", func(p *Pane, v string) { p.CursorY = atoi(v) }},
	{"alternate_on", func(p *Pane, v string) { p.AltScreen = v == "1" }},
}

// A Selection is the part of a pane a reader needs: the tmux variables of Pane's fields (by
// their tmux names, such as "pane_current_path") and the pane options it reads. tmux fills every
// variable of the format for every pane, which at hundreds of panes is most of a read's cost, so a
// reader asks for what it uses. A Pane read with a selection has the zero value in every field,
// and "" in every option, it did not ask for. pane_id is always read.
type Selection struct {
	Fields  []string
	Options []string
	// Filter, when set, is a tmux format that is true only for the panes to print (list-panes
	// -f): the others print no row, and their format is never filled. AgentFilter keeps the
	// panes with an agent.
	Filter string
	// Held are more fields, read only of the panes marked OptHeld; the rows of the others stop
	// before them, so tmux fills those variables only for panes that hold something of taw's.
	Held []string
}

// All is every fact of a pane.
var All = func() Selection {
	s := Selection{Options: Options}
	for _, f := range paneFields {
		s.Fields = append(s.Fields, f.name)
	}
	return s
}()

// Names are the selection's tmux variables in the order of its rows: pane_id, Fields, Held,
// Options.
func (s Selection) Names() []string {
	names := s.briefNames()
	names = append(names, s.Held...)
	return append(names, s.Options...)
}

// briefNames are the variables of a row that stops before Held.
func (s Selection) briefNames() []string {
	names := []string{"pane_id"}
	for _, f := range s.Fields {
		if f != "pane_id" {
			names = append(names, f)
		}
	}
	return names
}

// Format is the tmux format that prints one pane of the selection as one row.
func (s Selection) Format() string {
	brief := variables(s.briefNames())
	if len(s.Held) == 0 {
		return brief + s.more(s.Options)
	}
	// tmux splits a conditional at its top-level commas; variables and the separator have none.
	return brief + "#{?#{!=:#{" + OptHeld + "},}," + s.more(append(append([]string(nil), s.Held...), s.Options...)) + ",}"
}

// FullFormat is Format as it prints a pane marked OptHeld: every variable, unconditionally.
func (s Selection) FullFormat() string { return variables(s.Names()) }

// more is the part of a row after its brief variables.
func (s Selection) more(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return sep + variables(names)
}

// variables is the format that prints names so that tmux.DecodeRow reads them back on every
// release.
func variables(names []string) string {
	parts := make([]string, 0, len(names))
	for _, n := range names {
		switch {
		case textFields[n] || strings.HasPrefix(n, "@"):
			parts = append(parts, tmux.Text(n))
		case n == "window_activity":
			parts = append(parts, tmux.WindowTime(n))
		default:
			parts = append(parts, tmux.Plain(n))
		}
	}
	return tmux.Row(parts...)
}

// plainVariables is the format of names' values as they are, for a comparison inside tmux,
// which prints nothing.
func plainVariables(names []string) string {
	parts := make([]string, 0, len(names))
	for _, n := range names {
		parts = append(parts, tmux.Plain(n))
	}
	return tmux.Row(parts...)
}

// AgentFilter is true for a pane with an agent; tmux reads the value "0" as false, and an agent
// may go by that name, so the name is compared with "" rather than tested.
const AgentFilter = "#{!=:#{" + OptName + "},}"

// parser reads rows printed with the selection's Format.
func (s Selection) parser() func(row string) (Pane, error) {
	fields := s.fieldsParser()
	return func(row string) (Pane, error) { return fields(tmux.DecodeRow(row)) }
}

// fieldsParser reads a row's fields, already decoded.
func (s Selection) fieldsParser() func(f []string) (Pane, error) {
	names := s.Names()
	sets := make([]func(*Pane, string), len(names))
	for i, n := range names {
		for _, f := range paneFields {
			if f.name == n {
				sets[i] = f.set
			}
		}
		if sets[i] == nil {
			opt := n
			sets[i] = func(p *Pane, v string) { p.Options[opt] = v }
		}
	}
	nOptions := len(s.Options)
	partial := !hasEvery(s.Options, Options)
	nBrief := len(sets)
	if len(s.Held) > 0 {
		nBrief = len(s.briefNames())
	}
	return func(f []string) (Pane, error) {
		if len(f) != len(sets) && len(f) != nBrief {
			return Pane{}, fmt.Errorf("read pane: %d fields where %d were expected", len(f), len(sets))
		}
		p := Pane{partial: partial || len(f) < len(sets) && nOptions > 0, brief: len(f) < len(sets)}
		if nOptions > 0 {
			p.Options = make(map[string]string, nOptions)
		}
		for i := range f {
			sets[i](&p, f[i])
		}
		return p, nil
	}
}

// WithOptions is the pane with the options o, read apart from its fields: whole when o has every
// option, so it can be written.
func (p Pane) WithOptions(o map[string]string) Pane {
	p.Options, p.partial = o, false
	for _, k := range Options {
		if _, ok := o[k]; !ok {
			p.partial = true
		}
	}
	return p
}

// NoOptions is the options of a pane that has none set: every option, empty.
func NoOptions() map[string]string {
	o := make(map[string]string, len(Options))
	for _, k := range Options {
		o[k] = ""
	}
	return o
}

func hasEvery(have, want []string) bool {
	for _, w := range want {
		found := false
		for _, h := range have {
			found = found || h == w
		}
		if !found {
			return false
		}
	}
	return true
}

// ParseRow reads one row printed with the selection's Format.
func (s Selection) ParseRow(row string) (Pane, error) { return s.parser()(row) }

// Parser is ParseRow made once, for a reader of many rows.
func (s Selection) Parser() func(row string) (Pane, error) { return s.parser() }

// FieldsParser reads a row already split by tmux.DecodeRow, for a row that shares its line with a
// marker.
func (s Selection) FieldsParser() func(fields []string) (Pane, error) { return s.fieldsParser() }

// Format is the tmux format that prints every fact of one pane as one row.
func Format() string { return All.Format() }

// ParseRow reads one row printed with Format.
func ParseRow(row string) (Pane, error) { return allParser()(row) }

// allParser is All's parser, made once: the watcher reads every pane with it at every look, and
// making it matches each variable against every field.
var allParser = sync.OnceValue(All.parser)

// Read reads one pane, by id (%N), in one tmux call.
func Read(ctx context.Context, c *tmux.Client, paneID string) (Pane, error) {
	out, err := c.Output(ctx, "display-message", "-p", "-t", paneID, "-F", Format())
	if err != nil {
		return Pane{}, err
	}
	p, err := ParseRow(out)
	if err != nil {
		return Pane{}, err
	}
	if p.ID != paneID {
		// display-message falls back to the current pane for a target it cannot resolve.
		return Pane{}, &tmux.Error{Code: tmux.CodePaneNotFound, Stderr: "can't find pane: " + paneID}
	}
	return p, nil
}

// ListCmd is the tmux call that prints every pane of the server as a row ParseRow reads, each
// row after prefix (a marker, when the call shares one output with others; "" for none).
func ListCmd(prefix string) tmux.Cmd { return All.ListCmd(prefix) }

// ListCmd is the tmux call that prints the selection of every pane, each row after prefix.
func (s Selection) ListCmd(prefix string) tmux.Cmd {
	if s.Filter != "" {
		return tmux.Cmd{"list-panes", "-a", "-f", s.Filter, "-F", prefix + s.Format()}
	}
	return tmux.ListAllPanes(prefix + s.Format())
}

// List reads every pane of the server in one tmux call.
func List(ctx context.Context, c *tmux.Client) ([]Pane, error) { return ListSelected(ctx, c, All) }

// ListSelected reads the selection of every pane of the server in one tmux call.
func ListSelected(ctx context.Context, c *tmux.Client, s Selection) ([]Pane, error) {
	out, err := c.Run(ctx, s.ListCmd(""))
	if err != nil {
		return nil, err
	}
	parse := s.parser()
	var panes []Pane
	for _, row := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if row == "" {
			continue
		}
		p, err := parse(row)
		if err != nil {
			return nil, err
		}
		panes = append(panes, p)
	}
	return panes, nil
}

// SignalChannel is the tmux wait-for channel signalled whenever a pane's agent or state changes,
// so waiters need not poll.
const SignalChannel = "taw-state"

// WriteCmds are the tmux commands that turn the pane's options from old into new: only what
// changed, an empty value unsetting the option. A pane that held nothing of taw's gets OptHeld
// with its first option.
func WriteCmds(paneID string, old, new map[string]string) []tmux.Cmd {
	var cmds []tmux.Cmd
	sets := false
	for _, k := range Options {
		v, ok := new[k]
		if !ok || v == old[k] {
			continue
		}
		if v == "" {
			cmds = append(cmds, tmux.Cmd{"set-option", "-p", "-u", "-t", paneID, k})
		} else {
			cmds = append(cmds, tmux.Cmd{"set-option", "-p", "-t", paneID, k, v})
			sets = true
		}
	}
	if sets && HeldNothing(old) {
		cmds = append(cmds, HeldCmd(paneID))
	}
	return cmds
}

// HeldCmd marks the pane as one that holds something of taw's (OptHeld).
func HeldCmd(paneID string) tmux.Cmd {
	return tmux.Cmd{"set-option", "-p", "-t", paneID, OptHeld, "1"}
}

// HeldNothing says whether none of taw's options is set in o.
func HeldNothing(o map[string]string) bool {
	for _, k := range Options {
		if o[k] != "" {
			return false
		}
	}
	return true
}

// Commit writes rec into the pane's options, deriving the effective agent and state, and signals
// waiters when those moved. It returns the pane as written.
func Commit(ctx context.Context, c *tmux.Client, p Pane, rec report.Record, nowMillis int64, extra map[string]string) (Pane, error) {
	if p.partial {
		return p, fmt.Errorf("write pane %s: it was read without all of its options", p.ID)
	}
	next, cmds := commitPlan(p, rec, nowMillis, extra)
	if len(cmds) > 0 {
		if _, err := c.Run(ctx, cmds...); err != nil {
			return p, err
		}
	}
	p.Options = next
	return p, nil
}

// commitPlan is what Commit writes: the pane's next options and the tmux commands that set them.
func commitPlan(p Pane, rec report.Record, nowMillis int64, extra map[string]string) (map[string]string, []tmux.Cmd) {
	next := OptionsFromRecord(p.Options, rec, nowMillis)
	for k, v := range extra {
		next[k] = v
	}
	cmds := WriteCmds(p.ID, p.Options, next)
	if next[OptName] != p.Options[OptName] || next[OptState] != p.Options[OptState] {
		cmds = append(cmds, tmux.SignalCmds(SignalChannel)...)
	}
	return next, cmds
}
