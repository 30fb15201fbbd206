package tmux

import "errors"

// The codes of a classified tmux failure (Error.Code); they are also the stable error codes taw
// prints, so they never change spelling.
const (
	CodeServerNotRunning = "server_not_running" // no server on the socket, or it went away mid-call
	CodePaneNotFound     = "pane_not_found"     // the target pane, window or session is not there
	CodeTmuxError        = "tmux_error"         // any other failure of tmux or of running it
)

// IsServerGone says whether err, or an error it wraps, means the tmux server is not (or no
// longer) there.
func IsServerGone(err error) bool { return hasCode(err, CodeServerNotRunning) }

// IsPaneNotFound says whether err, or an error it wraps, means the target pane is not there.
func IsPaneNotFound(err error) bool { return hasCode(err, CodePaneNotFound) }

func hasCode(err error, code string) bool {
	var te *Error
	return errors.As(err, &te) && te.Code == code
}
