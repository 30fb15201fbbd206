package hookreport

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/ctrl"
	"github.com/taw-tmux/taw/helper/prompt"
)

// States an action reports.
const (
	Idle    = "idle"
	Working = "working"
	Blocked = "blocked"
)

// Event is one hook invocation: the agent whose integration runs, the event name the config
// passes, the payload's head and the hook's environment.
type Event struct {
	Agent   string
	Name    string
	Payload Payload
	Getenv  func(string) string
}

func (e Event) env(name string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(name)
}

// Action is what one event reports.
type Action struct {
	// Skip: the event changes nothing taw shows; nothing is sent.
	Skip bool
	// Release: the user quit the agent; the pane goes back to taw's reading of the screen.
	Release bool
	State   string
	// Message says what the agent waits for; every state report carries one ("" clears the
	// last), so a question answered leaves no stale text behind.
	Message string
	// MessageHint: Message is the agent's generic text ("Claude needs your permission to use
	// Bash"), which must not replace the more specific one an earlier event of the same dialog
	// left ("Allow Bash(make)?", the question).
	MessageHint bool
	// SessionID is the agent's session, "" when the payload has none.
	SessionID string
	// SessionStart is why the session started (startup, resume, clear, compact), when the
	// payload says.
	SessionStart string
	// Resume is the command that reopens the session, nil when unknown.
	Resume []string
	// KeepFlags are options of the pane's current resume command (for the same session) that
	// this event's payload cannot know and the new command keeps: Claude Code names its model
	// only at SessionStart.
	KeepFlags []string
}

// Known says whether taw maps agent's hook events: its catalogue entry has hooks.
func Known(agent string) bool { return agents.HooksOf(agent) != nil }

// Handles says whether Decide has a rule for the shared event name (an agent's own names are
// renamed onto these by its catalogue entry).
func Handles(name string) bool {
	_, ok := eventRules[name]
	return ok
}

// eventRules is what each shared event reports: it fills in a (whose session is set already)
// and says false for an event that changes nothing taw shows.
var eventRules = map[string]func(h *agents.Hooks, p Payload, a *Action) bool{
	"SessionStart": func(_ *agents.Hooks, p Payload, a *Action) bool {
		a.State, a.SessionStart = Idle, p.Get("source")
		return true
	},
	"UserPromptSubmit":   working,
	"PostToolUse":        working,
	"PostToolUseFailure": working,
	"PreCompact":         working,
	"SubagentStart":      working,
	"SubagentStop":       working,
	// The automatic classifier's no: the turn goes on.
	"PermissionDenied": working,
	"PreModelRequest":  working,
	"PostCompact": func(_ *agents.Hooks, p Payload, a *Action) bool {
		// A /compact typed at the prompt ends there; one the agent started goes on with the turn.
		a.State = Working
		if p.Get("trigger") == "manual" {
			a.State = Idle
		}
		return true
	},
	"PreToolUse": func(h *agents.Hooks, p Payload, a *Action) bool {
		a.State = Working
		if tool := p.Get("tool_name", "toolName"); tool != "" && tool == h.QuestionTool {
			a.State, a.Message = Blocked, questionMessage(p)
		}
		return true
	},
	"PermissionRequest": func(h *agents.Hooks, p Payload, a *Action) bool {
		a.State, a.Message = Blocked, permissionMessage(p)
		if tool := p.Get("tool_name", "toolName"); tool != "" && tool == h.QuestionTool {
			// The question tool asks for leave to ask: the question is what the person answers.
			a.Message = questionMessage(p)
		}
		return true
	},
	"Notification": func(h *agents.Hooks, p Payload, a *Action) bool {
		switch t := p.Get("notification_type", "notificationType"); {
		case t == "permission_prompt", t == "ToolPermission", t == "elicitation_dialog", asksApproval(h, t):
			a.State, a.Message, a.MessageHint = Blocked, clip(p.Get("message")), true
		case t == "idle_prompt", t == "idle":
			a.State = Idle
		default:
			return false
		}
		return true
	},
	"Stop":        idle,
	"StopFailure": idle,
	"Interrupt":   idle,
	"SessionEnd": func(h *agents.Hooks, p Payload, a *Action) bool {
		reason := p.Get("reason")
		for _, keep := range h.SessionEndKeeps {
			if reason == keep {
				return false
			}
		}
		*a = Action{Release: true}
		return true
	},
}

func working(_ *agents.Hooks, _ Payload, a *Action) bool { a.State = Working; return true }
func idle(_ *agents.Hooks, _ Payload, a *Action) bool    { a.State = Idle; return true }

// asksApproval says whether a notification type names one of the words by which the agent's
// notifications ask the person to approve.
func asksApproval(h *agents.Hooks, t string) bool {
	for _, w := range h.BlockingNotices {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// Decide maps one event to what taw's integration reports for it, by the agent's catalogue
// entry. An agent or event taw does not map is skipped.
func Decide(e Event) Action {
	h := agents.HooksOf(e.Agent)
	if h == nil {
		return Action{Skip: true}
	}
	p := e.Payload
	if p == nil {
		p = Payload{}
	}
	name := e.Name
	if n, ok := h.Rename[name]; ok {
		name = n
	}
	a := Action{SessionID: p.Get(h.SessionKeys...)}
	if h.SessionEnv != "" {
		if sid := e.env(h.SessionEnv); sid != "" {
			a.SessionID = sid
		}
	}
	// A run of the agent nested in this session (codex exec from a tool) shares the pane; its
	// hooks carry another session than the one the agent names in the environment.
	if h.ThreadEnv != "" {
		if thread := e.env(h.ThreadEnv); thread != "" && a.SessionID != "" && thread != a.SessionID {
			return Action{Skip: true}
		}
	}
	rule, ok := eventRules[name]
	if !ok || !rule(h, p, &a) {
		return Action{Skip: true}
	}
	if a.Release {
		return a
	}
	if a.SessionID != "" {
		a.Resume, a.KeepFlags = resume(e.Agent, h, a.SessionID, p)
	}
	return a
}

// resume is the command that reopens session sid of agent: the catalogue's, with the options
// the payload adds.
func resume(agent string, h *agents.Hooks, sid string, p Payload) (argv, keep []string) {
	a, ok := agents.Lookup(agent)
	if !ok || a.Resume == nil {
		return nil, nil
	}
	argv = a.Resume.Argv(sid, "")
	for _, f := range h.ResumeFlags {
		switch v := p.Get(f.Key); {
		case v != "" && v != f.Omit:
			argv = append(argv, f.Flag, v)
		case v == "" && f.Keep:
			keep = append(keep, f.Flag)
		}
	}
	return argv, keep
}

// maxMessage bounds a message: a line of agent list, the popup, a notification.
const maxMessage = 160

// permissionMessage is "Allow Tool(what)?": the command, the file, the address or the pattern
// the tool was asked to work on, from the tool's input.
func permissionMessage(p Payload) string {
	tool := p.Get("tool_name", "toolName")
	if tool == "" {
		return clip(p.Get("message"))
	}
	input := func(keys ...string) string {
		var paths []string
		for _, k := range keys {
			paths = append(paths, "tool_input."+k, "toolArgs."+k)
		}
		if v := p.Get(paths...); v != "" {
			return v
		}
		// Copilot passes the tool's arguments as a JSON string.
		if raw := p.Get("toolArgs"); strings.HasPrefix(strings.TrimSpace(raw), "{") {
			var args map[string]any
			if json.Unmarshal([]byte(raw), &args) == nil {
				for _, k := range keys {
					if s, ok := args[k].(string); ok && s != "" {
						return s
					}
				}
			}
		}
		return ""
	}
	return clip(prompt.Asking(tool, input("command", "cmd", "file_path", "path", "url", "pattern", "query")))
}

// questionMessage is the (first) question the agent asks.
func questionMessage(p Payload) string {
	if q := p.Get("tool_input.questions.0.question", "tool_input.question", "tool_input.questions.0.text",
		"tool_input.prompt", "toolArgs.question"); q != "" {
		return clip(q)
	}
	if raw := p.Get("toolArgs"); strings.HasPrefix(strings.TrimSpace(raw), "{") {
		var args struct {
			Question string `json:"question"`
		}
		if json.Unmarshal([]byte(raw), &args) == nil && args.Question != "" {
			return clip(args.Question)
		}
	}
	return "question"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip makes s one printable line of at most maxMessage bytes, cut at a character boundary with
// an ellipsis.
func clip(s string) string {
	s = oneLine(ctrl.Printable(s))
	if len(s) <= maxMessage {
		return s
	}
	cut := maxMessage - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// HookDaemon says whether argv is a process that runs the hooks of every session of agent, not
// of one pane's: Codex runs them from `codex app-server --managed-daemon`, which keeps the
// environment ($TMUX_PANE) of the first Codex started and may be its child. A report run under
// it is placed by its session alone.
func HookDaemon(agent string, argv []string) bool {
	if !HasHookDaemon(agent) {
		return false
	}
	server, managed := false, false
	for _, w := range argv {
		server = server || w == "app-server"
		managed = managed || w == "--managed-daemon"
	}
	return server && managed
}

// HasHookDaemon says whether agent may run its hooks from a daemon (HookDaemon).
func HasHookDaemon(agent string) bool { return agent == "codex" }
