package filelock

import (
	"fmt"
	"io"
	"os"
)

// TooLargeError says a file taw reads is larger than any it writes or expects.
type TooLargeError struct {
	Path string
	Max  int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d bytes, more than taw reads from it: is it the right file?", e.Path, e.Max)
}

// ErrorCode is the stable code of a file too large to read.
func (e *TooLargeError) ErrorCode() string { return "file_too_large" }

// ReadFile reads at most max bytes of path, so an endless file (/dev/zero, a FIFO fed forever)
// or a huge one ends the read with a *TooLargeError instead of taking all memory and time.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, &TooLargeError{Path: path, Max: max}
	}
	return b, nil
}
