package prompt

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Kinds of dialog an agent can be blocked on.
const (
	KindPermission   = "permission"
	KindQuestion     = "question"
	KindPlanApproval = "plan_approval"
	KindTrust        = "trust"
	KindSignIn       = "sign_in"
)

// Where a prompt's facts came from.
const (
	FromScreen = "screen"
	FromHook   = "hook"
)

// Prompt is what a blocked agent asks: the structured form of its dialog.
type Prompt struct {
	Kind     string   `json:"kind"`
	Question string   `json:"question"`
	Options  []Option `json:"options"`
	Tool     string   `json:"tool,omitempty"`
	Command  string   `json:"command,omitempty"` // the command or file a permission is for
	Message  string   `json:"message,omitempty"` // the agent's own words, from its hook
	Source   string   `json:"source"`

	// Selected is the option the dialog's cursor is on (1-based), 0 when the screen does not
	// show it. It moves as people press keys, so it is no part of the dialog's identity.
	Selected int `json:"-"`
	// Across says the choices sit on one line, picked with Left and Right.
	Across bool `json:"-"`
}

// Option is one choice of a dialog, in screen order.
type Option struct {
	Number int    `json:"number"` // 1-based, the order on screen
	Label  string `json:"label"`
	Key    string `json:"key,omitempty"`  // the key the dialog names for it, as tmux's send-keys spells it
	Text   bool   `json:"text,omitempty"` // the choice that takes a typed answer
}

// Same says whether two prompts are the same dialog: same kind, question and options.
func Same(a, b *Prompt) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || a.Question != b.Question || len(a.Options) != len(b.Options) {
		return false
	}
	for i := range a.Options {
		if a.Options[i].Label != b.Options[i].Label {
			return false
		}
	}
	return true
}

// Encode is the compact JSON kept in the pane's @agent_prompt option.
func (p *Prompt) Encode() string {
	if p == nil {
		return ""
	}
	b, _ := json.Marshal(p)
	return string(b)
}

// Decode reads what Encode wrote; an empty or broken value is no prompt.
func Decode(s string) *Prompt {
	if s == "" {
		return nil
	}
	var p Prompt
	if err := json.Unmarshal([]byte(s), &p); err != nil || p.Kind == "" {
		return nil
	}
	return &p
}

// Summary is the prompt in one line, for notifications and the popup:
// "wants to run `npm test` — 1 Yes · 2 Yes, don't ask again · 3 No".
func (p *Prompt) Summary() string {
	if p == nil {
		return ""
	}
	var head string
	switch {
	case p.Kind == KindPermission && p.Command != "":
		head = "wants to run `" + p.Command + "`"
		if p.Tool != "" && !isShellTool(p.Tool) {
			head = "wants to use " + p.Tool + " on `" + p.Command + "`"
		}
	case p.Question != "":
		head = "asks: " + p.Question
	default:
		head = "waits on a " + strings.ReplaceAll(p.Kind, "_", " ")
	}
	if len(p.Options) == 0 {
		return head
	}
	parts := make([]string, len(p.Options))
	for i, o := range p.Options {
		parts[i] = fmt.Sprintf("%d %s", o.Number, o.Label)
	}
	return head + " — " + strings.Join(parts, " · ")
}

func isShellTool(t string) bool {
	switch strings.ToLower(t) {
	case "bash", "shell", "sh", "exec", "command", "run_shell_command":
		return true
	}
	return false
}

// Asking is a permission's request in one line, as taw's messages spell it: "Allow Bash(npm
// test)?", or "Allow Bash?" when it names nothing.
func Asking(tool, what string) string {
	what = strings.Join(strings.Fields(what), " ")
	switch {
	case tool == "" && what == "":
		return ""
	case tool == "":
		return "Allow " + what + "?"
	case what == "":
		return "Allow " + tool + "?"
	}
	return "Allow " + tool + "(" + what + ")?"
}

// Specific is the message to show for a blocked agent whose message is message and whose dialog
// is p: message itself when it names what the dialog asks (its command, or its question), else
// the dialog's own words. A hook's generic words ("Tool Confirm Shell Command requires
// execution") give way to the command on screen.
func Specific(message string, p *Prompt) string {
	if p == nil {
		return message
	}
	switch {
	case p.Command != "":
		if strings.Contains(message, p.Command) {
			return message
		}
		return Asking(p.Tool, p.Command)
	case p.Kind == KindQuestion && p.Question != "":
		if strings.Contains(message, p.Question) {
			return message
		}
		return p.Question
	}
	return message
}

// FromMessage fills the tool and command of a prompt read off the screen from an agent's hook
// message, which names them more exactly than the screen: "Bash: npm test" or "npm test".
// The dialog's identity (kind, question, options) stays the screen's.
func FromMessage(p *Prompt, message string) *Prompt {
	message = strings.TrimSpace(message)
	if p == nil || message == "" {
		return p
	}
	q := *p
	q.Message = message
	q.Source = FromHook
	if tool, cmd, ok := strings.Cut(message, ": "); ok && !strings.ContainsAny(tool, " \t") && tool != "" {
		if q.Tool == "" {
			q.Tool = tool
		}
		if q.Command == "" {
			q.Command = strings.TrimSpace(cmd)
		}
	}
	return &q
}

// WithHook is the dialog of a blocked agent: q, the one read off its screen (nil when none is
// there), with what the hook holding the pane said it is blocked on (hookMessage, "" for
// nothing). With no dialog on screen the hook's message is the question.
func WithHook(q *Prompt, hookMessage string) *Prompt {
	if q == nil && hookMessage != "" {
		return &Prompt{Kind: KindPermission, Question: hookMessage, Message: hookMessage, Source: FromHook}
	}
	return FromMessage(q, hookMessage)
}
