package scrollback

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/taw-tmux/taw/helper/mux/wire"
)

func lines(s, e uint64) wire.CaptureRange {
	return wire.CaptureRange{Kind: wire.RangeLineRange, StartAbs: s, EndAbs: e}
}

func TestCaptureRanges(t *testing.T) {
	r := NewRing(0)
	r.Write([]byte("zero\none\x1b[31mtwo\x1b[0m\nthr"))
	r.Write([]byte("ee"))
	for _, c := range []struct {
		name      string
		rng       wire.CaptureRange
		ansi      bool
		data      string
		truncated bool
		full      bool
	}{
		{"all", wire.CaptureRange{Kind: wire.RangeAll}, true, "zero\none\x1b[31mtwo\x1b[0m\nthree", false, true},
		{"all plain", wire.CaptureRange{Kind: wire.RangeAll}, false, "zero\nonetwo\nthree", false, true},
		{"last 5", wire.CaptureRange{Kind: wire.RangeLastBytes, LastBytes: 5}, true, "three", false, false},
		// Asking for more than is held is truncated, and is a full read.
		{"last 1000", wire.CaptureRange{Kind: wire.RangeLastBytes, LastBytes: 1000}, false, "zero\nonetwo\nthree", true, true},
		{"line 0", lines(0, 0), true, "zero\n", false, false},
		// end_abs is inclusive, and the current line is the unfinished tail.
		{"lines 1-2", lines(1, 2), false, "onetwo\nthree", false, false},
		{"lines 0-2", lines(0, 2), true, "zero\none\x1b[31mtwo\x1b[0m\nthree", false, true},
		{"start after end", lines(2, 1), true, "", false, false},
		{"past the current line", lines(1, 3), true, "", true, true},
	} {
		got := r.Capture(c.rng, c.ansi)
		if string(got.Data) != c.data || got.Truncated != c.truncated || got.EffectivelyFull != c.full ||
			got.FirstAbsLine != 0 || got.LastAbsLine != 2 {
			t.Errorf("%s: got %q truncated=%v full=%v lines %d-%d; want %q %v %v 0-2",
				c.name, got.Data, got.Truncated, got.EffectivelyFull, got.FirstAbsLine, got.LastAbsLine, c.data, c.truncated, c.full)
		}
	}
}

func TestRingDropsOldLines(t *testing.T) {
	r := NewRing(10)
	r.Write([]byte("aaaa\nbbbb\ncc")) // 12 bytes: "aa" of line 0 is gone
	if r.FirstLine() != 1 || r.LastLine() != 2 || string(r.Bytes()) != "aa\nbbbb\ncc" {
		t.Fatalf("first %d last %d bytes %q", r.FirstLine(), r.LastLine(), r.Bytes())
	}
	got := r.Capture(lines(0, 1), true)
	if len(got.Data) != 0 || !got.Truncated {
		t.Errorf("a range starting before the window: %q truncated=%v, want empty and truncated", got.Data, got.Truncated)
	}
	got = r.Capture(lines(1, 2), true)
	if string(got.Data) != "bbbb\ncc" || got.Truncated || got.FirstAbsLine != 1 {
		t.Errorf("lines 1-2: %+v", got)
	}
	r.Write(bytes.Repeat([]byte("x"), 25))
	if r.Len() != 10 || r.FirstLine() != 2 || string(r.Bytes()) != "xxxxxxxxxx" {
		t.Errorf("after a write bigger than the ring: len %d first %d %q", r.Len(), r.FirstLine(), r.Bytes())
	}
}

// The ring against a plain model, over random writes that wrap many times.
func TestRingMatchesModel(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	const capacity = 97
	r := NewRing(capacity)
	var all []byte
	for i := 0; i < 2000; i++ {
		chunk := make([]byte, rnd.Intn(60))
		for j := range chunk {
			chunk[j] = "ab\n"[rnd.Intn(3)]
		}
		r.Write(chunk)
		all = append(all, chunk...)
		keep := all
		if len(keep) > capacity {
			keep = keep[len(keep)-capacity:]
		}
		if !bytes.Equal(r.Bytes(), keep) {
			t.Fatalf("step %d: ring %q, model %q", i, r.Bytes(), keep)
		}
		if n := uint64(bytes.Count(all, []byte("\n"))); r.LastLine() != n {
			t.Fatalf("step %d: last line %d, want %d", i, r.LastLine(), n)
		}
		// The first readable line starts inside the window; the one before it does not.
		first := r.FirstLine()
		if first > 0 && first <= r.LastLine() {
			start := nthLineStart(all, first)
			if start < len(all)-len(keep) || nthLineStart(all, first-1) >= len(all)-len(keep) {
				t.Fatalf("step %d: first line %d is wrong", i, first)
			}
			got := r.Capture(lines(first, r.LastLine()), true)
			if !bytes.Equal(got.Data, all[start:]) {
				t.Fatalf("step %d: lines %d.. = %q, want %q", i, first, got.Data, all[start:])
			}
		}
	}
}

func nthLineStart(all []byte, n uint64) int {
	if n == 0 {
		return 0
	}
	seen := uint64(0)
	for i, c := range all {
		if c == '\n' {
			seen++
			if seen == n {
				return i + 1
			}
		}
	}
	return len(all)
}

func TestEffectivelyFullSaturates(t *testing.T) {
	r := NewRing(0)
	r.Write([]byte("a\nb\nc\nd\ne\n"))                             // lines 0-5
	if got := r.Capture(lines(0, 4), true); !got.EffectivelyFull { // 4*100 >= 5*80
		t.Error("lines 0-4 of 0-5 should count as full")
	}
	if got := r.Capture(lines(0, 3), true); got.EffectivelyFull { // 300 < 400
		t.Error("lines 0-3 of 0-5 should not count as full")
	}
	if got := r.Capture(lines(0, ^uint64(0)), true); !got.EffectivelyFull || !got.Truncated {
		t.Errorf("a huge range: %+v", got)
	}
}

func TestStripANSI(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain\r\n\ttext", "plain\r\n\ttext"},
		{"\x1b[1;31mred\x1b[0m", "red"},
		{"\x1b]0;title\x07after", "after"},
		{"\x1b]8;;http://x\x1b\\link", "link"},
		{"a\x1b(Bb", "aBb"}, // ESC and the one byte after it go, nothing more
		{"unterminated \x1b[12", "unterminated "},
		{"osc without end \x1b]abc", "osc without end "},
		{"trailing\x1b", "trailing"},
		{"\x1b\x1bx", "x"},
	} {
		if got := string(StripANSI([]byte(c.in))); got != c.want {
			t.Errorf("StripANSI(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestModesPreamble(t *testing.T) {
	for _, c := range []struct {
		chunks []string
		want   string
	}{
		{nil, ""},
		{[]string{"\x1b[?1049h\x1b[?25l"}, "\x1b[?1049h\x1b[?25l"},
		// Split across chunks, several params in one sequence, and a fixed output order.
		{[]string{"\x1b[?2004;10", "06h\x1b", "[?1002h\x1b[?1h\x1b[?47h"}, "\x1b[?47h\x1b[?1h\x1b[?1002h\x1b[?1006h\x1b[?2004h"},
		{[]string{"\x1b[?1049h\x1b[?1049l\x1b[?25l\x1b[?25h"}, ""},
		{[]string{"\x1b[?1000h\x1b[?1003h"}, "\x1b[?1003h"},
		{[]string{"\x1b[1049h\x1b[?x1049h"}, ""},
	} {
		var m Modes
		for _, ch := range c.chunks {
			m.Feed([]byte(ch))
		}
		if got := string(m.Preamble()); got != c.want {
			t.Errorf("%q: preamble %q, want %q", c.chunks, got, c.want)
		}
	}
}
