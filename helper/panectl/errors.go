package panectl

import "github.com/taw-tmux/taw/helper/coded"

// Error codes (docs/errors.md).
const (
	CodeInvalidArgument = coded.InvalidArgument
	CodeTimeout         = coded.Timeout
	CodeNotFound        = "not_found"
	CodeGit             = "git_error"
)

// Error is a refusal or failure with a stable code.
type Error = coded.Error

func errorf(code, format string, args ...any) *Error { return coded.Errorf(code, format, args...) }

// CodeOf is the code of an error panectl or tmux returned, "" for any other.
func CodeOf(err error) string { return coded.CodeOf(err) }
