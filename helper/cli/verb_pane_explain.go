package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/attention"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/procinfo"
	"github.com/taw-tmux/taw/helper/shellquote"
	"github.com/taw-tmux/taw/helper/tmuxconf"
	"github.com/taw-tmux/taw/helper/watch"
	"github.com/urfave/cli/v2"
)

// taw pane explain: why a pane shows the agent and state it shows, for users and bug reports.

type paneExplainOptions struct {
	Pane string
	JSON bool
}

func (f *Factory) paneExplain(c *cli.Context, pane string) error {
	return paneExplainRun(c.Context, f, &paneExplainOptions{Pane: pane, JSON: c.Bool(flagJSON)})
}

// explainView is the JSON shape of taw pane explain. Field names are stable.
type explainView struct {
	Pane      paneView         `json:"pane"`
	Agent     *string          `json:"agent"`
	State     *string          `json:"state"`
	DecidedBy string           `json:"decided_by"`
	Why       string           `json:"why"`
	Hook      *explainHook     `json:"hook"`
	Detected  *string          `json:"detected"`
	DetState  *string          `json:"detected_state"`
	Resume    *explainResume   `json:"resume"`
	Session   *explainSession  `json:"agent_session"`
	SeqBook   []explainSeq     `json:"seq_book"`
	Restored  *int64           `json:"restored"`
	Process   explainProcess   `json:"process"`
	Screen    *screenView      `json:"screen"`
	Next      explainNextState `json:"next_look"`
}

type explainHook struct {
	Source  string  `json:"source"`
	Agent   string  `json:"agent"`
	State   *string `json:"state"`
	Message *string `json:"message"`
}

type explainResume struct {
	Command []string `json:"command"`
	Line    string   `json:"line"`
	Source  string   `json:"source"`
	Agent   string   `json:"agent"`
}

type explainSession struct {
	ID     *string `json:"id"`
	Path   *string `json:"path"`
	Start  *string `json:"start"`
	Source string  `json:"source"`
	Agent  string  `json:"agent"`
}

type explainSeq struct {
	Source string `json:"source"`
	Seq    uint64 `json:"seq"`
}

type explainProc struct {
	PID  int      `json:"pid"`
	PGID int      `json:"pgid"`
	Comm string   `json:"comm"`
	Argv []string `json:"argv"`
	Exe  *string  `json:"exe"` // the real executable, through links
	Hint *string  `json:"agent_hint"`
}

type explainProcess struct {
	PanePID  int           `json:"pane_pid"`
	AtPrompt bool          `json:"at_prompt"`
	Leader   *explainProc  `json:"leader"`
	Group    []explainProc `json:"group"`
	Agent    *string       `json:"agent"`
	Why      string        `json:"why"`
	Error    *string       `json:"error"`
}

type explainNextState struct {
	Agent   *string `json:"agent"`
	State   *string `json:"state"`
	Cleared bool    `json:"clears_agent"`
	Why     string  `json:"why"`
}

func paneExplainRun(ctx context.Context, f *Factory, opts *paneExplainOptions) error {
	id, err := f.ResolvePane(ctx, opts.Pane)
	if err != nil {
		return err
	}
	c := f.Tmux()
	settings, err := tmuxconf.ReadSettings(ctx, c)
	if err != nil {
		return err
	}
	grace := watch.ParseGrace(settings.Get(tmuxconf.SettingRestoreGrace))
	rules := loadRules(f, io.Discard)
	e, err := watch.Explain(ctx, c, rules, id, f.Now(), grace)
	if err != nil {
		return err
	}
	e.Pane = withPrompt(ctx, f, e.Pane)
	v := newExplainView(e)
	if opts.JSON {
		return writeJSONLine(f.IO.Out, v)
	}
	return writeExplainText(f.IO.Out, e, v)
}

func newExplainView(e *watch.Explanation) explainView {
	r := e.Record
	v := explainView{
		Pane: newPaneView(e.Pane), Agent: nullable(e.Agent), State: nullable(shownState(e)),
		DecidedBy: e.DecidedBy, Why: e.Why,
		Detected: nullable(r.Detected), DetState: nullable(r.DetectedState),
		SeqBook: []explainSeq{},
	}
	if r.Source != "" {
		v.Hook = &explainHook{Source: r.Source, Agent: r.Kind, State: nullable(r.ReportedState), Message: nullable(r.Message)}
	}
	if len(r.Resume) > 0 {
		v.Resume = &explainResume{Command: r.Resume, Line: shellquote.Line(shellquote.POSIX, r.Resume), Source: r.ResumeSource, Agent: r.ResumeAgent}
	}
	if r.SessionSource != "" || r.SessionID != "" {
		v.Session = &explainSession{ID: nullable(r.SessionID), Path: nullable(r.SessionPath), Start: nullable(r.SessionStart), Source: r.SessionSource, Agent: r.SessionAgent}
	}
	for _, b := range r.Seq {
		v.SeqBook = append(v.SeqBook, explainSeq{Source: b.Source, Seq: b.Seq})
	}
	if e.Restored > 0 {
		ms := e.Restored
		v.Restored = &ms
	}
	p := e.Process
	v.Process = explainProcess{PanePID: p.PanePID, AtPrompt: p.AtPrompt, Agent: nullable(p.Agent), Why: p.Why, Error: nullable(p.Err), Group: []explainProc{}}
	if p.Leader.PID != 0 {
		l := newExplainProc(p.Leader)
		v.Process.Leader = &l
	}
	for _, g := range p.Group {
		v.Process.Group = append(v.Process.Group, newExplainProc(g))
	}
	if s := e.Screen; s != nil {
		v.Screen = newScreenView(s.Explanation)
	}
	na, ns := e.Next.Record.Effective()
	v.Next = explainNextState{Agent: nullable(na), State: nullable(ns), Cleared: e.Next.Gone, Why: e.Next.Why}
	return v
}

// shownState is the state taw agent list and the popup show: done for an idle agent whose
// finished turn nobody has looked at yet.
func shownState(e *watch.Explanation) string {
	if e.Agent == "" {
		return e.State
	}
	return attention.ShownFrom(e.Agent, e.State, e.Pane.Options[panestate.OptDone])
}

func newExplainProc(p procinfo.Proc) explainProc {
	ep := explainProc{PID: p.PID, PGID: p.PGID, Comm: p.Comm, Argv: p.Argv, Exe: nullable(p.Exe)}
	if ep.Argv == nil {
		ep.Argv = []string{}
	}
	for _, name := range procinfo.HintVars {
		if h := p.Env[name]; h != "" {
			hint := name + "=" + h
			ep.Hint = &hint
			break
		}
	}
	return ep
}

func writeExplainText(w io.Writer, e *watch.Explanation, v explainView) error {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	r := e.Record
	line("pane %s (%s)", e.Pane.ID, e.Pane.Target())
	switch {
	case e.Agent == "":
		line("agent: none")
	case shownState(e) != e.State:
		line("agent: %s, %s (%s, and nobody has looked at the pane since its turn ended)", e.Agent, shownState(e), e.State)
	default:
		line("agent: %s, %s", e.Agent, e.State)
	}
	if v.Pane.Prompt != nil {
		line("asks: %s", strings.TrimPrefix(v.Pane.Prompt.Summary(), "asks: "))
	}
	line("decided by: %s: %s", e.DecidedBy, e.Why)
	if r.Source != "" {
		msg := ""
		if r.Message != "" {
			msg = fmt.Sprintf(" (%q)", r.Message)
		}
		line("hook: source %s holds the pane for %s, last reported %s%s", r.Source, r.Kind, orDash(r.ReportedState), msg)
	} else {
		line("hook: none holds the pane")
	}
	line("detected: %s %s", orDash(r.Detected), orDash(r.DetectedState))
	if len(r.Resume) > 0 {
		line("resume: %s (from %s for %s)", shellquote.Line(shellquote.POSIX, r.Resume), r.ResumeSource, r.ResumeAgent)
	} else {
		line("resume: none")
	}
	if r.SessionSource != "" || r.SessionID != "" {
		line("agent session: %s (from %s for %s)", orDash(r.SessionID), r.SessionSource, r.SessionAgent)
	}
	if len(r.Seq) > 0 {
		var parts []string
		for _, s := range r.Seq {
			parts = append(parts, fmt.Sprintf("%s=%d", s.Source, s.Seq))
		}
		line("seq book: %s", strings.Join(parts, ", "))
	} else {
		line("seq book: empty")
	}
	if e.Restored > 0 {
		line("restored: %s", time.UnixMilli(e.Restored).UTC().Format(time.RFC3339))
	}
	p := e.Process
	line("process: pane pid %d", p.PanePID)
	if p.Err != "" {
		line("  unreadable: %s", p.Err)
	} else {
		line("  foreground group %d, leader %d: %s", p.Leader.PGID, p.Leader.PID, argvText(p.Leader))
		for _, g := range p.Group {
			if g.PID != p.Leader.PID {
				line("  member %d: %s", g.PID, argvText(g))
			}
		}
		line("  at prompt: %t", p.AtPrompt)
		line("  identify: %s", orDash(p.Agent))
		line("  because: %s", p.Why)
	}
	if s := e.Screen; s != nil {
		writeScreenText(&b, s.Explanation)
	} else {
		line("screen: not read (no detected agent in front)")
	}
	na, ns := e.Next.Record.Effective()
	next := "no agent"
	if na != "" {
		next = na + ", " + ns
	}
	if e.Next.Gone {
		next += " (clears the agent)"
	}
	line("next look: %s: %s", next, e.Next.Why)
	_, err := io.WriteString(w, visibleText(b.String()))
	return err
}

func argvText(p procinfo.Proc) string {
	if len(p.Argv) == 0 {
		return "(" + p.Comm + ")"
	}
	return strings.Join(p.Argv, " ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
