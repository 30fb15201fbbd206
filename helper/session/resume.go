package session

import (
	"fmt"
	"strings"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/shellquote"
)

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// OwnResume is taw's own command for the agent's session: the command the agent documents for
// reopening one session, from the agent catalogue; nil when the agent has none.
func OwnResume(agent, id, path string) []string {
	a, ok := agents.Lookup(agent)
	if !ok || a.Resume == nil {
		return nil
	}
	return a.Resume.Argv(id, path)
}

// Resume is what a restore types into one pane, and whose word it is.
type Resume struct {
	Argv   []string
	Source string // the source the pane is given back to
	Agent  string
	Origin string // "reported": the agent's own command; "taw": taw's table
	// SessionKey names the agent session the command reopens, so two panes never reopen the same.
	SessionKey string
}

// ChooseResume picks the pane's command: the one its agent reported, else taw's own for the
// agent's session. A command that breaks the contract's rules (a file edited by hand) is never
// typed; why is returned instead.
func ChooseResume(a *Agent) (res *Resume, problem string) {
	if a == nil {
		return nil, ""
	}
	// A save edited by hand, or made before such ids were refused, may hold one that starts
	// with -: the agent would read it as an option, so no command is typed for it.
	for _, v := range []struct{ what, value string }{{"session id", a.SessionID}, {"session path", a.SessionPath}} {
		if strings.HasPrefix(v.value, "-") {
			return nil, fmt.Sprintf("resume command not typed: the %s %q starts with -, which the agent would read as an option", v.what, v.value)
		}
	}
	if len(a.Resume) > 0 {
		if err := report.ValidateResume(a.Resume, nil); err != nil {
			problem = "saved command not typed: " + err.Error()
		} else {
			agent := first(a.ResumeAgent, a.ReportedKind)
			return &Resume{Argv: a.Resume, Source: first(a.ResumeSource, a.Source), Agent: agent,
				Origin: "reported", SessionKey: sessionKey(agent, a, a.Resume)}, ""
		}
	}
	if a.SessionAgent == "" || (a.SessionID == "" && a.SessionPath == "") {
		return nil, problem
	}
	argv := OwnResume(a.SessionAgent, a.SessionID, a.SessionPath)
	if argv == nil {
		return nil, problem
	}
	if err := report.ValidateResume(argv, nil); err != nil {
		return nil, "taw's resume command not typed: " + err.Error()
	}
	return &Resume{Argv: argv, Source: first(a.SessionSource, restoreSource), Agent: a.SessionAgent,
		Origin: "taw", SessionKey: sessionKey(a.SessionAgent, a, argv)}, problem
}

// restoreSource holds a restored pane whose session no source is known for.
const restoreSource = "taw:restore"

// sessionKey is the agent's session the command reopens: its id or file when the pane's session
// belongs to that agent, the command itself otherwise.
func sessionKey(agent string, a *Agent, argv []string) string {
	agent = agents.Canonical(agent)
	if agents.Canonical(a.SessionAgent) == agent {
		if a.SessionID != "" {
			return agent + "\x00id\x00" + a.SessionID
		}
		if a.SessionPath != "" {
			return agent + "\x00path\x00" + a.SessionPath
		}
	}
	return agent + "\x00cmd\x00" + shellquote.Line(shellquote.POSIX, argv)
}

// agentFromRecord is the saved form of a pane's record; nil when the pane has no agent facts.
func agentFromRecord(name string, r report.Record) *Agent {
	a := &Agent{
		Name: name, Source: r.Source, ReportedKind: r.Kind, Detected: r.Detected,
		SessionID: r.SessionID, SessionPath: r.SessionPath, SessionSource: r.SessionSource,
		SessionAgent: r.SessionAgent, Resume: r.Resume, ResumeSource: r.ResumeSource,
		ResumeAgent: r.ResumeAgent,
	}
	if a.Name == "" && a.Source == "" && a.SessionID == "" && a.SessionPath == "" && len(a.Resume) == 0 {
		return nil
	}
	return a
}

// RestoredRecord is the record a restore writes on a pane whose command it typed: the command is
// back on the pane with the agent's word that it is there, as the agent's own report would put
// it, and the agent's session with it. The state is unknown until the agent reports again.
func RestoredRecord(a *Agent, res *Resume) report.Record {
	r := report.Record{
		Source: res.Source, Kind: res.Agent, ReportedState: report.StateUnknown,
		Resume: res.Argv, ResumeSource: res.Source, ResumeAgent: res.Agent,
	}
	if a != nil && agents.Canonical(a.SessionAgent) == agents.Canonical(res.Agent) {
		r.SessionID, r.SessionPath = a.SessionID, a.SessionPath
		r.SessionSource, r.SessionAgent = res.Source, res.Agent
	}
	return r
}
