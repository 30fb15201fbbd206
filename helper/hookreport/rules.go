package hookreport

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/taw-tmux/taw/helper/report"
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

// Known says whether taw maps agent's hook events.
func Known(agent string) bool {
	_, ok := agentRules[agent]
	return ok
}

// agentRule is one agent's mapping: its own event names onto the shared ones, where its
// payload keeps the session, the tool that asks the user, and its resume command.
type agentRule struct {
	rename       map[string]string
	sessionKeys  []string
	questionTool string
	// sessionEndKeeps are SessionEnd reasons after which the same process goes on with another
	// session: no release.
	sessionEndKeeps []string
	resume          func(sid string, p Payload) ([]string, []string)
}

var claudeFamilyKeep = []string{"clear", "resume", "compact"}

var agentRules = map[string]agentRule{
	"claude": {sessionKeys: []string{"session_id"}, questionTool: "AskUserQuestion", sessionEndKeeps: claudeFamilyKeep,
		resume: func(sid string, p Payload) ([]string, []string) {
			argv := []string{"claude", "--resume", sid}
			var keep []string
			if m := p.Get("model"); m != "" {
				argv = append(argv, "--model", m)
			} else {
				keep = []string{"--model"}
			}
			if mode := p.Get("permission_mode"); mode != "" && mode != "default" {
				argv = append(argv, "--permission-mode", mode)
			}
			return argv, keep
		}},
	"codex": {sessionKeys: []string{"session_id"}, sessionEndKeeps: []string{"clear"},
		resume: plain("codex", "resume")},
	"copilot": {
		rename: map[string]string{
			"sessionStart": "SessionStart", "userPromptSubmitted": "UserPromptSubmit", "preToolUse": "PreToolUse",
			"postToolUse": "PostToolUse", "permissionRequest": "PermissionRequest", "notification": "Notification",
			"agentStop": "Stop", "subagentStop": "SubagentStop", "preCompact": "PreCompact",
			"errorOccurred": "StopFailure", "sessionEnd": "SessionEnd",
		},
		sessionKeys: []string{"sessionId", "session_id"}, questionTool: "ask_user",
		resume: func(sid string, _ Payload) ([]string, []string) { return []string{"copilot", "--resume=" + sid}, nil }},
	"cursor": {
		rename: map[string]string{
			"sessionStart": "SessionStart", "stop": "Stop", "beforeSubmitPrompt": "UserPromptSubmit",
			"postToolUse": "PostToolUse", "afterFileEdit": "PostToolUse", "sessionEnd": "SessionEnd",
		},
		sessionKeys: []string{"conversation_id", "session_id"}, resume: plain("cursor-agent", "--resume")},
	"devin":    {sessionKeys: []string{"session_id"}, questionTool: "AskUserQuestion", resume: plain("devin", "--resume")},
	"droid":    {sessionKeys: []string{"session_id"}, questionTool: "AskUser", sessionEndKeeps: claudeFamilyKeep, resume: plain("droid", "--resume")},
	"grok":     {sessionKeys: []string{"session_id"}, questionTool: "AskUserQuestion", resume: plain("grok", "--resume")},
	"kimi":     {sessionKeys: []string{"session_id"}, questionTool: "AskUserQuestion", resume: plain("kimi", "--session")},
	"qodercli": {sessionKeys: []string{"session_id"}, questionTool: "AskUserQuestion", sessionEndKeeps: claudeFamilyKeep, resume: plain("qodercli", "--resume")},
	"gemini": {
		rename: map[string]string{
			"BeforeAgent": "UserPromptSubmit", "BeforeTool": "PreToolUse", "AfterTool": "PostToolUse",
			"AfterAgent": "Stop",
		},
		sessionKeys: []string{"session_id"}, questionTool: "ask_user", sessionEndKeeps: []string{"clear"},
		resume: plain("gemini", "--resume")},
}

func plain(words ...string) func(string, Payload) ([]string, []string) {
	return func(sid string, _ Payload) ([]string, []string) {
		return append(append([]string{}, words...), sid), nil
	}
}

// Decide maps one event to what taw's integration reports for it. An agent or event taw does
// not map is skipped.
func Decide(e Event) Action {
	rule, ok := agentRules[e.Agent]
	if !ok {
		return Action{Skip: true}
	}
	p := e.Payload
	if p == nil {
		p = Payload{}
	}
	name := e.Name
	if n, ok := rule.rename[name]; ok {
		name = n
	}
	a := Action{SessionID: p.Get(rule.sessionKeys...)}
	if e.Agent == "grok" {
		if sid := e.env("GROK_SESSION_ID"); sid != "" {
			a.SessionID = sid
		}
	}
	// A codex run nested in this session (codex exec from a tool) shares the pane; its hooks
	// carry another session than the thread Codex names in the environment.
	if e.Agent == "codex" {
		if thread := e.env("CODEX_THREAD_ID"); thread != "" && a.SessionID != "" && thread != a.SessionID {
			return Action{Skip: true}
		}
	}
	switch name {
	case "SessionStart":
		a.State = Idle
		a.SessionStart = p.Get("source")
	case "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "PreCompact", "SubagentStart",
		"SubagentStop", "PermissionDenied", "PreModelRequest":
		// PermissionDenied is the automatic classifier's no: the turn goes on.
		a.State = Working
	case "PostCompact":
		// A /compact typed at the prompt ends there; one the agent started goes on with the turn.
		a.State = Working
		if p.Get("trigger") == "manual" {
			a.State = Idle
		}
	case "PreToolUse":
		a.State = Working
		if tool := p.Get("tool_name", "toolName"); tool != "" && tool == rule.questionTool {
			a.State, a.Message = Blocked, questionMessage(p)
		}
	case "PermissionRequest":
		a.State, a.Message = Blocked, permissionMessage(p)
		if tool := p.Get("tool_name", "toolName"); tool != "" && tool == rule.questionTool {
			// The question tool asks for leave to ask: the question is what the person answers.
			a.Message = questionMessage(p)
		}
	case "Notification":
		switch t := p.Get("notification_type", "notificationType"); {
		case t == "permission_prompt", t == "ToolPermission", t == "elicitation_dialog":
			a.State, a.Message, a.MessageHint = Blocked, clip(p.Get("message")), true
		case t == "idle_prompt", t == "idle":
			a.State = Idle
		case e.Agent == "kimi" && (strings.Contains(t, "approval") || strings.Contains(t, "permission")):
			a.State, a.Message, a.MessageHint = Blocked, clip(p.Get("message")), true
		default:
			return Action{Skip: true}
		}
	case "Stop", "StopFailure", "Interrupt":
		a.State = Idle
	case "SessionEnd":
		reason := p.Get("reason")
		for _, keep := range rule.sessionEndKeeps {
			if reason == keep {
				return Action{Skip: true}
			}
		}
		return Action{Release: true}
	default:
		return Action{Skip: true}
	}
	if a.SessionID != "" && rule.resume != nil {
		a.Resume, a.KeepFlags = rule.resume(a.SessionID, p)
	}
	return a
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
	what := input("command", "cmd", "file_path", "path", "url", "pattern", "query")
	if what == "" {
		return clip("Allow " + tool + "?")
	}
	return clip("Allow " + tool + "(" + oneLine(what) + ")?")
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
	s = oneLine(report.Printable(s))
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
