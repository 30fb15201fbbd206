package agentctl

import (
	"errors"
	"fmt"
)

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
	CodeTimeout              = "timeout"
	CodeInvalidArgument      = "invalid_argument"
	CodeUnknownAgent         = "unknown_agent"
	CodeBusy                 = "busy"
)

// Error is a refusal or failure with a stable code.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string     { return e.Message }
func (e *Error) ErrorCode() string { return e.Code }

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// CodeOf is the code of an error agentctl or tmux returned, "" for any other.
func CodeOf(err error) string {
	var c interface{ ErrorCode() string }
	if errors.As(err, &c) {
		return c.ErrorCode()
	}
	return ""
}
