package watch

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/detect"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/procinfo"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
)

// Explanation is why a pane shows the agent and state it shows: the stored record, who decided,
// and what a look made now finds in front of the pane and on its screen.
type Explanation struct {
	Pane   panestate.Pane
	Record report.Record
	Agent  string // effective, as stored
	State  string
	// DecidedBy is "hook", "screen-blocker" (a blocker on screen overrides the hook's state),
	// "screen" or "none"; Why says it in words.
	DecidedBy string
	Why       string
	Restored  int64 // @agent_restored, unix ms, 0 when unset

	Process ProcessFacts
	Screen  *ScreenFacts // nil when no detected agent's screen was read

	// Next is what the watcher's next look would write, from these facts.
	Next Decision
}

// ProcessFacts is what is in front of the pane.
type ProcessFacts struct {
	PanePID  int
	TPGID    int
	AtPrompt bool // the pane's own shell is at its prompt
	Leader   procinfo.Proc
	Group    []procinfo.Proc
	Agent    string // the agent Identify names, "" for none
	Why      string // Identify's reason
	Err      string // the process table could not be read
}

// ScreenFacts is one read of the agent's screen: how its rules read it, rule by rule.
type ScreenFacts struct {
	detect.Explanation
	Lines []string
}

// Explain reads one pane, what runs in front of it and its screen, now.
func Explain(ctx context.Context, c *tmux.Client, rules *detect.Rules, paneID string, now time.Time, grace time.Duration) (*Explanation, error) {
	p, err := panestate.Read(ctx, c, paneID)
	if err != nil {
		return nil, err
	}
	e := &Explanation{Pane: p, Record: p.Record(), Restored: restoredAt(p)}
	e.Agent, e.State = e.Record.Effective()
	e.DecidedBy, e.Why = decidedBy(e.Record)

	f := Facts{}
	e.Process.PanePID = p.PID
	switch {
	case p.Dead:
		f = Facts{Known: true, Dead: true}
		e.Process.Err = "the pane's process has exited (the pane is kept by remain-on-exit)"
	default:
		leader, group, shellInFront, err := procinfo.Foreground(p.PID)
		if err != nil {
			e.Process.Err = err.Error()
			break
		}
		e.Process.TPGID = leader.PGID
		e.Process.Leader, e.Process.Group = leader, group
		e.Process.AtPrompt = shellInFront && IsInteractiveShell(leader)
		if e.Process.AtPrompt {
			e.Process.Why = "the pane's shell is at its prompt: no agent runs here"
		} else {
			e.Process.Agent, e.Process.Why = detect.Identify(leader, group)
		}
		f = Facts{Known: true, AtPrompt: e.Process.AtPrompt, Agent: e.Process.Agent}
		_, f.Quit = quitMarked(p, f.Agent, now.UnixMilli())
		_, f.Allowed = panestate.AnswerTaken(p.Options)
	}
	screenAgent := e.Process.Agent
	if screenAgent == "" && !e.Process.AtPrompt {
		screenAgent = e.Record.Detected
	}
	if screenAgent != "" {
		out, err := c.Run(ctx, tmux.Cmd{"capture-pane", "-p", "-t", p.ID})
		if err == nil {
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			s := &ScreenFacts{Lines: lines,
				Explanation: rules.Explain(screenAgent, detect.Screen{Lines: lines, Title: p.Title})}
			e.Screen = s
			if screenAgent == f.Agent {
				f.Classified, f.State = true, s.Verdict.State
			}
		}
	}
	e.Next = Decide(e.Record, e.Restored, f, now.UnixMilli(), grace.Milliseconds())
	return e, nil
}

// decidedBy names the signal behind the record's effective state.
func decidedBy(r report.Record) (string, string) {
	agent, state := r.Effective()
	switch {
	case agent == "":
		return "none", "no hook holds the pane and the watcher names no agent in front of it"
	case r.Source != "" && state == report.StateBlocked && r.ReportedState != report.StateBlocked:
		return "screen-blocker", fmt.Sprintf("source %s holds the pane and reported %s, but a blocker on %s's screen shows blocked", r.Source, orNone(r.ReportedState), agent)
	case r.Source != "" && state != r.ReportedState && (r.ReportedState == "" || r.ReportedState == report.StateUnknown):
		return "screen-state", fmt.Sprintf("source %s holds the pane but has reported no state yet (%s): %s's screen shows %s", r.Source, orNone(r.ReportedState), agent, state)
	case r.Source != "":
		return "hook", fmt.Sprintf("source %s holds the pane for %s: its reports decide the state until it releases the pane or the agent's process ends", r.Source, r.Kind)
	default:
		return "screen", fmt.Sprintf("no hook holds the pane: the watcher named %s from the process in front and reads its state from the screen", agent)
	}
}

func orNone(s string) string {
	if s == "" {
		return "no state"
	}
	return s
}
