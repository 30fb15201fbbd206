// Package coded is the error with a stable code (docs/errors.md) that the packages acting for
// every front end return: the command line, the herdr socket and the MCP server read the code
// the same way, whichever package refused.
package coded

import (
	"errors"
	"fmt"
)

// Codes more than one package returns.
const (
	InvalidArgument = "invalid_argument"
	Timeout         = "timeout"
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
