package scrollback

import "bytes"

// Capacity is how many bytes of output a pane keeps.
const Capacity = 1 << 20

// Ring is a pane's most recent output with a line index. Line numbers count the newlines seen
// since the pane started; they only grow. Line i runs from the byte after newline i-1 up to and
// including newline i; the last line is the unfinished tail.
type Ring struct {
	buf   []byte // circular: absolute offset o lives at o % cap
	cap   int
	total uint64 // bytes ever written; the valid window is [total-valid, total)
	// starts holds the absolute byte offset where each still-readable line begins, oldest first;
	// firstLine is the number of the line at starts[head].
	starts    []uint64
	head      int
	firstLine uint64
	lines     uint64 // newlines seen: the number of the current line
}

// NewRing returns an empty ring of the given capacity (Capacity when zero).
func NewRing(capacity int) *Ring {
	if capacity <= 0 {
		capacity = Capacity
	}
	return &Ring{cap: capacity, starts: []uint64{0}}
}

// Write appends output, dropping the oldest bytes beyond the capacity.
func (r *Ring) Write(p []byte) {
	for i := 0; ; {
		j := bytes.IndexByte(p[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		r.lines++
		r.starts = append(r.starts, r.total+uint64(i))
	}
	if r.buf == nil {
		r.buf = make([]byte, r.cap)
	}
	if len(p) > r.cap {
		r.total += uint64(len(p) - r.cap)
		p = p[len(p)-r.cap:]
	}
	for len(p) > 0 {
		at := int(r.total % uint64(r.cap))
		n := copy(r.buf[at:], p)
		p = p[n:]
		r.total += uint64(n)
	}
	r.trimIndex()
}

func (r *Ring) valid() uint64 { return min(r.total, uint64(r.cap)) }

func (r *Ring) trimIndex() {
	oldest := r.total - r.valid()
	for r.head < len(r.starts) && r.starts[r.head] < oldest {
		r.head++
		r.firstLine++
	}
	if r.head > 4096 && r.head*2 > len(r.starts) {
		r.starts = append(r.starts[:0], r.starts[r.head:]...)
		r.head = 0
	}
}

// Bytes returns every valid byte, oldest first (a copy).
func (r *Ring) Bytes() []byte { return r.slice(r.total-r.valid(), r.total) }

// Len is the number of valid bytes held.
func (r *Ring) Len() int { return int(r.valid()) }

// FirstLine is the oldest line that can still be read whole; when even the current line's start
// is gone it is the current line.
func (r *Ring) FirstLine() uint64 {
	if r.head >= len(r.starts) {
		return r.lines
	}
	return r.firstLine
}

// LastLine is the current, unfinished line: the number of newlines seen.
func (r *Ring) LastLine() uint64 { return r.lines }

// lineStart is the absolute offset where a readable line begins, clamped to the window.
func (r *Ring) lineStart(line uint64) uint64 {
	oldest := r.total - r.valid()
	i := r.head + int(line-r.firstLine)
	if line < r.firstLine || i >= len(r.starts) {
		return oldest
	}
	return r.starts[i]
}

// slice returns the bytes between two absolute offsets inside the window.
func (r *Ring) slice(from, to uint64) []byte {
	out := make([]byte, 0, to-from)
	for from < to {
		at := from % uint64(r.cap)
		n := min(to-from, uint64(r.cap)-at)
		out = append(out, r.buf[at:at+n]...)
		from += n
	}
	return out
}
