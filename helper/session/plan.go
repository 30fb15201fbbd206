package session

import (
	"fmt"
	"sort"

	"github.com/taw-tmux/taw/helper/panestate"
)

// Live is what the running server holds when a restore starts.
type Live struct {
	Sessions map[string]bool
	Panes    []panestate.Pane
	// Programs are the server's program rules; Shell and ShellCommand its default-shell and
	// default-command.
	Programs            ProgramRules
	Shell, ShellCommand string
	VimSessions         bool // @agent-wizard-restore-vim-sessions is on
}

// Plan is a restore worked out before tmux is touched.
type Plan struct {
	Create []Session // sessions to create; windows and panes in index order
	Kept   []string  // saved sessions that exist already: left as they are
	Typing []Typing  // commands to type, in document order
	Notes  []Note
	// Tiled marks windows whose saved layout cannot be applied (session name → window index):
	// their panes are tiled instead.
	Tiled map[string]map[int]bool
}

// Target names a pane of the plan as people type it.
type Target struct {
	Session string
	Window  int
	Pane    int // position in the window's pane list, from 0
}

func (t Target) String() string { return fmt.Sprintf("%s:%d.%d", t.Session, t.Window, t.Pane) }

// Typing is one pane's command: its agent's resume command, or the program it ran.
type Typing struct {
	Target  Target
	Agent   *Agent
	Resume  *Resume  // nil for a program
	Program []string // the program's argv, when Resume is nil
	Line    string   // what is typed, before Enter
}

// PlanOptions are what a restore plan depends on besides the save and the server.
type PlanOptions struct {
	ResumeAgents bool
	Programs     ProgramRules
	// VimSessions is @agent-wizard-restore-vim-sessions: a saved Session.vim is given to vim.
	VimSessions bool
	// CheckVimSession says why a saved Session.vim may not be given to vim now (CheckVimSession
	// for the user); nil refuses every one.
	CheckVimSession func(path string) error
}

// Note is something the restore did not do, and why.
type Note struct {
	Target string `json:"target,omitempty"`
	Note   string `json:"note"`
}

// PlanRestore decides what a restore of d does in a server holding live: which sessions it
// creates (those missing; an existing session is never touched), and which panes get their resume
// command typed (none when resume is off; one pane per agent session, and none for a session an
// agent in the server runs already). A pane whose agent gets no resume command gets its program
// started again when the rules name it: agents keep priority.
func PlanRestore(d *Document, live Live, opts PlanOptions) Plan {
	resumeOn := opts.ResumeAgents
	p := Plan{Tiled: map[string]map[int]bool{}}
	claimed := map[string]string{} // session key → the pane that resumes it, or the live pane running it
	for _, lp := range live.Panes {
		if a := agentFromRecord(lp.Agent(), lp.Record()); a != nil {
			if res, _ := ChooseResume(a); res != nil {
				claimed[res.SessionKey] = "pane " + lp.ID + " (" + lp.Target() + "), which runs it already"
			}
		}
	}
	resumeOffNoted := false
	for _, s := range d.Sessions {
		if live.Sessions[s.Name] {
			p.Kept = append(p.Kept, s.Name)
			continue
		}
		s = sortedSession(s)
		for _, w := range s.Windows {
			if reason := layoutProblem(w); reason != "" {
				if p.Tiled[s.Name] == nil {
					p.Tiled[s.Name] = map[int]bool{}
				}
				p.Tiled[s.Name][w.Index] = true
				p.Notes = append(p.Notes, Note{Target: fmt.Sprintf("%s:%d", s.Name, w.Index), Note: reason + ": its panes are tiled instead"})
			}
			for i, pane := range w.Panes {
				t := Target{Session: s.Name, Window: w.Index, Pane: i}
				res, problem := ChooseResume(pane.Agent)
				if problem != "" {
					p.Notes = append(p.Notes, Note{Target: t.String(), Note: problem})
				}
				switch {
				case res == nil:
					if p.planProgram(t, pane, opts) {
						continue
					}
					if pane.Agent != nil && pane.Agent.Name != "" && problem == "" {
						p.Notes = append(p.Notes, Note{Target: t.String(), Note: "left a plain shell: " + pane.Agent.Name + " ran here but reported no session taw can resume"})
					}
				case !resumeOn:
					if !resumeOffNoted {
						p.Notes = append(p.Notes, Note{Note: "resuming agents is off ([session] resume_agents_on_restore = false): no command typed"})
						resumeOffNoted = true
					}
				default:
					if by, ok := claimed[res.SessionKey]; ok {
						p.Notes = append(p.Notes, Note{Target: t.String(), Note: "left a plain shell: the same " + res.Agent + " session is resumed in " + by})
						continue
					}
					line, err := TypedLine(res.Argv)
					if err != nil {
						p.Notes = append(p.Notes, Note{Target: t.String(), Note: "resume command not typed: " + err.Error()})
						continue
					}
					claimed[res.SessionKey] = t.String()
					p.Typing = append(p.Typing, Typing{Target: t, Agent: pane.Agent, Resume: res, Line: line})
				}
			}
		}
		p.Create = append(p.Create, s)
	}
	return p
}

// planProgram adds the pane's saved program to the typing when the rules start it again, and says
// whether it did.
func (p *Plan) planProgram(t Target, pane Pane, opts PlanOptions) bool {
	if pane.Program == nil {
		return false
	}
	argv, ok := opts.Programs.Restart(pane.Program.Argv)
	if !ok {
		return false
	}
	if vs := pane.Program.VimSession; vs != "" && isVim(argv) && sameArgv(argv, pane.Program.Argv) {
		var err error
		switch {
		case !opts.VimSessions:
			err = fmt.Errorf("%s is off", SettingRestoreVimSessions)
		case opts.CheckVimSession == nil:
			err = fmt.Errorf("it cannot be checked")
		default:
			err = opts.CheckVimSession(vs)
		}
		if err != nil {
			p.Notes = append(p.Notes, Note{Target: t.String(), Note: "Session.vim not given to vim: " + err.Error()})
		} else {
			argv = WithVimSession(argv, vs)
		}
	}
	line, err := TypedLine(argv)
	if err != nil {
		p.Notes = append(p.Notes, Note{Target: t.String(), Note: "program not started: " + err.Error()})
		return false
	}
	p.Typing = append(p.Typing, Typing{Target: t, Agent: pane.Agent, Program: argv, Line: line})
	return true
}

func sameArgv(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// layoutProblem says why a window's saved layout cannot be given to tmux, "" when it can.
func layoutProblem(w Window) string {
	if w.Layout == "" {
		if len(w.Panes) > 1 {
			return "no layout saved"
		}
		return ""
	}
	info, err := ParseLayout(w.Layout)
	if err != nil {
		return "layout not applied (" + err.Error() + ")"
	}
	if info.Panes != len(w.Panes) {
		return fmt.Sprintf("layout not applied (it places %d panes, the window saved %d)", info.Panes, len(w.Panes))
	}
	return ""
}

func sortedSession(s Session) Session {
	ws := append([]Window(nil), s.Windows...)
	sort.SliceStable(ws, func(i, j int) bool { return ws[i].Index < ws[j].Index })
	for i := range ws {
		ps := append([]Pane(nil), ws[i].Panes...)
		sort.SliceStable(ps, func(a, b int) bool { return ps[a].Index < ps[b].Index })
		ws[i].Panes = ps
	}
	s.Windows = ws
	return s
}

// Size is the window size a session is created with: the size its first window's layout was made
// for, so the panes fit before the layout is applied. Zero when unknown.
func Size(s Session) (w, h int) {
	for _, win := range s.Windows {
		if info, err := ParseLayout(win.Layout); err == nil {
			return info.Width, info.Height
		}
	}
	return 0, 0
}

// NoServer is what a restore finds when no server runs: nothing, and the default program rules.
func NoServer() Live {
	return Live{Sessions: map[string]bool{}, Programs: ParsePrograms("", "")}
}
