// Package coded is the error with a stable code (docs/errors.md) that the packages acting for
// every front end return: the command line, the herdr socket and the MCP server read the code
// the same way, whichever package refused.
package coded

import (
	"errors"
	"fmt"
)

// The stable codes (docs/errors.md), each spelled here once, whichever package returns it. tmux's
// own (server_not_running, pane_not_found, tmux_error) are the tmux package's, which reads them
// off tmux's answers; herdr's socket speaks herdr's codes (herdrsock).
const (
	// Every verb's.
	Usage           = "usage"            // the call is not shaped as the verb's usage line says (exit 2)
	InvalidArgument = "invalid_argument" // a value in a call shaped right is not one taw takes
	Timeout         = "timeout"
	Busy            = "busy" // a lock not taken in time
	NoSpace         = "no_space"
	ReadOnly        = "read_only"
	Internal        = "internal"
	NotFound        = "not_found" // a tab, window or worktree named by the call is not there
	Git             = "git_error"

	// The verbs that act on an agent.
	AgentNotFound        = "agent_not_found"
	AgentTargetAmbiguous = "agent_target_ambiguous"
	AgentNotRunning      = "agent_not_running"
	AgentBlocked         = "agent_blocked"
	AgentNotReady        = "agent_not_ready"
	// AgentNotInstalled: taw agent start found no program of the agent on the PATH of tmux or of
	// the caller; nothing was started.
	AgentNotInstalled  = "agent_not_installed"
	AgentNotBlocked    = "agent_not_blocked"
	PromptChanged      = "prompt_changed"
	PromptNotTaken     = "prompt_not_taken"
	AnswerNotTaken     = "answer_not_taken"
	AnswerPending      = "answer_pending"
	AnswerTextNotTyped = "answer_text_not_typed"
	UnknownAgent       = "unknown_agent" // no agent of the catalogue has that name

	// Reports and configuration.
	InvalidResumeArgv = "invalid_resume_argv" // a refused resume command
	ConfigInvalid     = "config_invalid"      // every problem in a file taw reads as configuration, an agent config too
	ScreenUnreadable  = "screen_unreadable"   // a saved screen could not be read (taw detect)
	NotifyFailed      = "notify_failed"       // a channel could not deliver (taw notify test)
	LoadFailed        = "load_failed"         // a part of loading or unloading the plugin failed
	SessionNotFound   = "session_not_found"   // a --session names no session of the server

	// Saved sessions.
	SaveNotFound = "save_not_found" // no save by that name (or no such earlier copy)
	SaveInvalid  = "save_invalid"   // the file is not a save this taw can read
	SaveEmpty    = "save_empty"     // a save of no panes would replace one with panes

	// The integration verbs (docs/integrations.md).
	IntegrationConflict = "integration_conflict"
	IntegrationIO       = "integration_io"

	// taw mux.
	MuxAlreadyRunning = "mux_already_running"
	MuxSocket         = "mux_socket"
	MuxNoDaemon       = "mux_no_daemon"
	MuxProtocol       = "mux_protocol"
	MuxBadOp          = "mux_bad_op"
	MuxRefused        = "mux_refused"

	// The plugin verbs.
	PluginNotFound      = "plugin_not_found"
	PluginInvalid       = "plugin_invalid"
	PluginExists        = "plugin_exists"
	PluginDisabled      = "plugin_disabled"
	PluginCommandFailed = "plugin_command_failed"
	PluginRegistry      = "plugin_registry_invalid"
)

// Error is a refusal or failure with a stable code.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string     { return e.Message }
func (e *Error) ErrorCode() string { return e.Code }

// Errorf is an Error with code and a message made as fmt.Sprintf makes it.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// CodeOf is the stable code of err (one of this package's, or tmux's), "" for any other error.
func CodeOf(err error) string {
	var c interface{ ErrorCode() string }
	if errors.As(err, &c) {
		return c.ErrorCode()
	}
	return ""
}
