package agentctl

import "github.com/taw-tmux/taw/helper/coded"

// Error codes (docs/errors.md). They are the command line's codes too.
const (
	CodeAgentNotFound        = "agent_not_found"
	CodeAgentTargetAmbiguous = "agent_target_ambiguous"
	CodeAgentNotRunning      = "agent_not_running"
	CodeAgentBlocked         = "agent_blocked"
	CodeAgentNotReady        = "agent_not_ready"
	CodeAgentNotInstalled    = "agent_not_installed"
	CodeAgentNotBlocked      = "agent_not_blocked"
	CodePromptChanged        = "prompt_changed"
	CodePromptNotTaken       = "prompt_not_taken"
	CodeAnswerNotTaken       = "answer_not_taken"
	CodeAnswerPending        = "answer_pending"
	CodeAnswerTextNotTyped   = "answer_text_not_typed"
	CodeTimeout              = coded.Timeout
	CodeInvalidArgument      = coded.InvalidArgument
	CodeUnknownAgent         = "unknown_agent"
	CodeBusy                 = "busy"
)

// Error is a refusal or failure with a stable code.
type Error = coded.Error

func errorf(code, format string, args ...any) *Error { return coded.Errorf(code, format, args...) }

// CodeOf is the code of an error agentctl or tmux returned, "" for any other.
func CodeOf(err error) string { return coded.CodeOf(err) }
