package panectl

import (
	"errors"
	"fmt"
)

// Error codes (docs/errors.md).
const (
	CodeInvalidArgument = "invalid_argument"
	CodeTimeout         = "timeout"
	CodeNotFound        = "not_found"
	CodeGit             = "git_error"
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

// CodeOf is the code of an error panectl or tmux returned, "" for any other.
func CodeOf(err error) string {
	var c interface{ ErrorCode() string }
	if errors.As(err, &c) {
		return c.ErrorCode()
	}
	return ""
}
