package report

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// The seq book keeps, per pane, the last number each source sent: the last MaxBookSources
// sources to send one, encoded in at most MaxBookBytes, the oldest going first.
const (
	MaxBookSources = 32
	MaxBookBytes   = 2048
)

// BookEntry is one source's last number.
type BookEntry struct {
	Source string
	Seq    uint64
}

// Book is ordered oldest first.
type Book []BookEntry

// Last returns the last number source sent, if it sent one.
func (b Book) Last(source string) (uint64, bool) {
	for _, e := range b {
		if e.Source == source {
			return e.Seq, true
		}
	}
	return 0, false
}

// InOrder says whether a report from source with seq (nil: none) is taken: a number must be
// higher than the source's last, and once a source has sent a number, a report without one is
// not taken.
func (b Book) InOrder(source string, seq *uint64) bool {
	last, ok := b.Last(source)
	if !ok {
		return true
	}
	return seq != nil && *seq > last
}

// Record notes source's number as its newest, dropping the oldest sources beyond the limits.
func (b Book) Record(source string, seq uint64) Book {
	out := make(Book, 0, len(b)+1)
	for _, e := range b {
		if e.Source != source {
			out = append(out, e)
		}
	}
	out = append(out, BookEntry{source, seq})
	for len(out) > MaxBookSources || len(out.Encode()) > MaxBookBytes {
		out = out[1:]
	}
	return out
}

// Drop forgets source's numbers (its agent left the pane).
func (b Book) Drop(source string) Book {
	out := make(Book, 0, len(b))
	for _, e := range b {
		if e.Source != source {
			out = append(out, e)
		}
	}
	return out
}

// Encode writes the book as a compact JSON array of [seq, source] pairs, oldest first. It holds
// no newline, so the book can travel in one row of tmux's list output.
func (b Book) Encode() string {
	var s strings.Builder
	s.WriteByte('[')
	for i, e := range b {
		if i > 0 {
			s.WriteByte(',')
		}
		s.WriteByte('[')
		s.WriteString(strconv.FormatUint(e.Seq, 10))
		s.WriteByte(',')
		s.WriteString(jsonString(e.Source))
		s.WriteByte(']')
	}
	s.WriteByte(']')
	return s.String()
}

// ParseBook reads what Encode wrote; anything it cannot read is an empty book.
func ParseBook(s string) Book {
	if s == "" {
		return nil
	}
	var raw [][2]json.RawMessage
	if json.Unmarshal([]byte(s), &raw) != nil {
		return nil
	}
	var b Book
	for _, pair := range raw {
		var e BookEntry
		if json.Unmarshal(pair[0], &e.Seq) != nil || json.Unmarshal(pair[1], &e.Source) != nil || e.Source == "" {
			continue
		}
		b = append(b.Drop(e.Source), e)
	}
	return b
}

func jsonString(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(buf.String(), "\n")
}
