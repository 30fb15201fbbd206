package report

import (
	"fmt"
	"strings"
	"testing"
)

func u(n uint64) *uint64 { return &n }

func TestBookInOrder(t *testing.T) {
	book := Book{}.Record("a", 5)
	tests := []struct {
		name   string
		source string
		seq    *uint64
		want   bool
	}{
		{"higher number is taken", "a", u(6), true},
		{"same number is not taken", "a", u(5), false},
		{"lower number is not taken", "a", u(4), false},
		{"no number once sequenced is not taken", "a", nil, false},
		{"another source is independent", "b", u(1), true},
		{"a source that never sent a number may send none", "b", nil, true},
		{"zero from a new source is taken", "c", u(0), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := book.InOrder(tt.source, tt.seq); got != tt.want {
				t.Errorf("InOrder(%q, %v) = %v, want %v", tt.source, tt.seq, got, tt.want)
			}
		})
	}
}

func TestBookKeepsLast32Sources(t *testing.T) {
	var b Book
	for i := 0; i < 33; i++ {
		b = b.Record(fmt.Sprintf("s%02d", i), uint64(i))
	}
	if len(b) != MaxBookSources {
		t.Fatalf("book holds %d sources, want %d", len(b), MaxBookSources)
	}
	if _, ok := b.Last("s00"); ok {
		t.Errorf("the oldest source s00 is still in the book")
	}
	if n, ok := b.Last("s32"); !ok || n != 32 {
		t.Errorf("newest source s32 = %d, %v; want 32, true", n, ok)
	}
	// A source sending again becomes the newest, so it is not the next to go.
	b = b.Record("s01", 100).Record("new", 1)
	if _, ok := b.Last("s01"); !ok {
		t.Errorf("s01 sent again and was still dropped")
	}
	if _, ok := b.Last("s02"); ok {
		t.Errorf("s02 is now the oldest and should have gone")
	}
}

func TestBookKeepsAtMost2KiB(t *testing.T) {
	var b Book
	long := strings.Repeat("x", 128)
	for i := 0; i < 32; i++ {
		b = b.Record(fmt.Sprintf("%s%02d", long[:126], i), 18446744073709551615)
	}
	if n := len(b.Encode()); n > MaxBookBytes {
		t.Fatalf("encoded book is %d bytes, want at most %d", n, MaxBookBytes)
	}
	if len(b) >= 32 {
		t.Fatalf("book kept %d long sources; they cannot fit in 2 KiB", len(b))
	}
	// The newest always stays.
	if _, ok := b.Last(long[:126] + "31"); !ok {
		t.Errorf("the newest source was dropped")
	}
	// One more byte of room would not fit another entry: the book is as full as 2 KiB allows.
	first := b[0]
	with := append(Book{{Source: "older" + first.Source[5:], Seq: first.Seq}}, b...)
	if len(with.Encode()) <= MaxBookBytes {
		t.Errorf("the book dropped more than it had to")
	}
}

func TestBookEncodeRoundTrip(t *testing.T) {
	b := Book{}.Record(`quote " and \ back`, 1).Record("integration:claude", 1796152688430000000).Record("é 日本", 0)
	got := ParseBook(b.Encode())
	if len(got) != 3 || got[0] != b[0] || got[1] != b[1] || got[2] != b[2] {
		t.Fatalf("round trip = %#v, want %#v", got, b)
	}
	for _, bad := range []string{"", "garbage", "[[1]]", `[["x","y"]]`, `[[1,2]]`, "[[-1,\"a\"]]"} {
		if got := ParseBook(bad); len(got) != 0 {
			t.Errorf("ParseBook(%q) = %v, want empty", bad, got)
		}
	}
}

func TestBookDrop(t *testing.T) {
	b := Book{}.Record("a", 1).Record("b", 2).Drop("a")
	if _, ok := b.Last("a"); ok || len(b) != 1 {
		t.Errorf("Drop(a) = %v", b)
	}
}
