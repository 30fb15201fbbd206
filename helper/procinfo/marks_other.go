//go:build !linux

package procinfo

// MarkReader reads marks as ReadMark does; without /proc there is no file to keep.
type MarkReader struct{}

// Read is ReadMark(pid).
func (r *MarkReader) Read(pid int) (Mark, error) { return ReadMark(pid) }

// Sweep does nothing here.
func (r *MarkReader) Sweep() {}

// Close does nothing here.
func (r *MarkReader) Close() {}
