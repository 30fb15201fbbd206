package cli

import (
	"errors"
	"fmt"
	"io"
	"syscall"

	"github.com/taw-tmux/taw/helper/coded"
)

// Exit codes, mapped in one place (Main).
const (
	ExitOK          = 0
	ExitError       = 1
	ExitUsage       = 2
	ExitInterrupted = 130
)

// Error is an error with a stable code and an exit status.
type Error struct {
	Code    string
	Message string
	Exit    int
}

func (e *Error) Error() string { return e.Message }

// Errorf builds an exit-1 error with a stable code.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Exit: ExitError}
}

// The one rule of the two codes every verb shares (docs/errors.md):
//   - usage, exit 2: the call is not shaped as the verb's usage line says: an unknown verb or
//     flag, a missing or extra argument, a required flag left out, flags that do not go together.
//   - invalid_argument, exit 1: the call is shaped right but a value in it is not one taw takes:
//     a word outside its list (--state, --until, --kind), a duration or number that does not read
//     or is out of range (--interval, --timeout, --seq), a name too long or badly formed.

// UsageErrorf builds an exit-2 error: the call itself was malformed.
func UsageErrorf(format string, args ...any) *Error {
	return &Error{Code: coded.Usage, Message: fmt.Sprintf(format, args...), Exit: ExitUsage}
}

// InvalidValuef builds the exit-1 error of a value that is not one taw takes.
func InvalidValuef(format string, args ...any) *Error {
	return Errorf(coded.InvalidArgument, format, args...)
}

// AsError turns any error into an *Error, keeping the code of one that already has it.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if code := coded.CodeOf(err); code != "" {
		return &Error{Code: code, Message: err.Error(), Exit: ExitError}
	}
	// A full disk or a read-only file system is the machine's state, not taw's fault: say which.
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return &Error{Code: coded.NoSpace, Message: err.Error() + ": free some space (or quota) and try again", Exit: ExitError}
	case errors.Is(err, syscall.EROFS):
		return &Error{Code: coded.ReadOnly, Message: err.Error() + ": the file system is read-only; point taw at a writable folder", Exit: ExitError}
	}
	return &Error{Code: coded.Internal, Message: err.Error(), Exit: ExitError}
}

// writeError prints the error as one JSON line, the shape every verb uses on stderr.
func writeError(w io.Writer, e *Error) {
	b, _ := marshalJSON(struct {
		OK      bool   `json:"ok"`
		Code    string `json:"code"`
		Message string `json:"message"`
	}{false, e.Code, e.Message})
	fmt.Fprintf(w, "%s\n", b)
}
