package popup

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

var ansi = regexp.MustCompile("\x1b\\[[0-9;?]*[a-zA-Z]")

func visible(s string) string { return ansi.ReplaceAllString(s, "") }

func rows(n int) []Row {
	states := []string{"blocked", "done", "working", "idle", "unknown"}
	now := time.Unix(1000, 0)
	var out []Row
	for i := 0; i < n; i++ {
		out = append(out, Row{
			PaneID: fmt.Sprintf("%%%d", i), Target: fmt.Sprintf("main:%d.0", i), Window: "w",
			Agent: fmt.Sprintf("agent-%d", i), State: states[i%len(states)], Dir: "~/src/project/very/deep/path",
			Message: "a message that is rather long and will not fit in a narrow column 日本語", Since: now.Add(-time.Duration(i) * time.Minute),
		})
	}
	return out
}

// Every line of the view is exactly the terminal's width, at any size, whatever the rows hold.
func TestViewFits(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {70, 19}, {120, 40}, {40, 10}, {23, 6}, {10, 3}, {1, 1}, {200, 5}} {
		for _, n := range []int{0, 1, 3, 100} {
			m := &Model{Width: size[0], Height: size[1], Now: time.Unix(1000, 0)}
			m.SetRows(rows(n))
			m.SetPreview(m.Selected(), []string{"line one", "\ttabbed\x07 bell", strings.Repeat("x", 300), "", ""})
			for _, k := range []Key{{}, {Name: "end"}, {Name: "pgup"}, {Rune: 'a'}} {
				if k.Name != "" || k.Rune != 0 {
					m.Press(k)
				}
				lines := m.View()
				if len(lines) != size[1] {
					t.Fatalf("%dx%d, %d rows: %d lines", size[0], size[1], n, len(lines))
				}
				for i, l := range lines {
					if w := Width(visible(l)); w != size[0] {
						t.Fatalf("%dx%d, %d rows, after %+v: line %d is %d cells: %q", size[0], size[1], n, k, i, w, visible(l))
					}
				}
			}
		}
	}
}

func TestKeys(t *testing.T) {
	m := &Model{Width: 80, Height: 24}
	m.SetRows(rows(10))
	press := func(b string) {
		for _, k := range DecodeKeys([]byte(b)) {
			m.Press(k)
		}
	}
	press("jj\x1b[B")
	if m.Cursor != 3 {
		t.Fatalf("j j down: cursor %d", m.Cursor)
	}
	press("k\x1b[A")
	if m.Cursor != 1 {
		t.Fatalf("k up: cursor %d", m.Cursor)
	}
	press("agent-7")
	if !m.Filtering || m.Filter != "agent-7" || len(m.Visible()) != 1 || m.Selected() != "%7" {
		t.Fatalf("filter %q: %d visible, selected %s", m.Filter, len(m.Visible()), m.Selected())
	}
	press("\x7f\x7f\x7f\x7f\x7f\x7f\x7f")
	if m.Filtering || m.Filter != "" || len(m.Visible()) != 10 || m.Selected() != "%7" {
		t.Fatalf("backspaced out: filtering %v, %q, selected %s", m.Filtering, m.Filter, m.Selected())
	}
	press("/q")
	if m.Quit || m.Filter != "q" {
		t.Fatalf("/ then q filters: quit %v filter %q", m.Quit, m.Filter)
	}
	press("\x1b")
	if m.Quit || m.Filter != "" {
		t.Fatal("esc clears a filter first")
	}
	press("\x1b[6~")
	if m.Cursor != 9 {
		t.Fatalf("page down: cursor %d", m.Cursor)
	}
	press("\r")
	if !m.Quit || m.Choice != "%9" {
		t.Fatalf("enter: quit %v choice %q", m.Quit, m.Choice)
	}
	m = &Model{Width: 80, Height: 24}
	m.SetRows(rows(2))
	press("q")
	if !m.Quit || m.Choice != "" {
		t.Fatal("q closes without a choice")
	}
	m = &Model{Width: 80, Height: 24}
	press("\x1b")
	if !m.Quit {
		t.Fatal("esc closes")
	}
	m = &Model{Width: 80, Height: 24}
	press("\r")
	if m.Quit {
		t.Fatal("enter on an empty list does nothing")
	}
}

// A refresh keeps the cursor on the same pane, wherever it moved in the order.
func TestRefreshKeepsSelection(t *testing.T) {
	m := &Model{Width: 80, Height: 24}
	rs := rows(5)
	m.SetRows(rs)
	m.Press(Key{Name: "down"})
	m.Press(Key{Name: "down"})
	sel := m.Selected()
	m.SetRows([]Row{rs[4], rs[2], rs[0]})
	if m.Selected() != sel {
		t.Fatalf("selected %s after refresh, want %s", m.Selected(), sel)
	}
	m.SetRows(rs[3:])
	if m.Selected() != rs[3].PaneID {
		t.Fatalf("selection gone: cursor on %s, want the first row", m.Selected())
	}
}

// With more agents than rows, the cursor's row is always drawn.
func TestScrolls(t *testing.T) {
	m := &Model{Width: 80, Height: 24}
	m.SetRows(rows(100))
	for i := 0; i < 100; i++ {
		m.Press(Key{Name: "down"})
		found := false
		for _, l := range m.View() {
			if strings.Contains(visible(l), m.Visible()[m.Cursor].Agent+" ") {
				found = true
			}
		}
		if !found {
			t.Fatalf("cursor row %d not on screen", m.Cursor)
		}
	}
}

func TestFit(t *testing.T) {
	for _, c := range []struct {
		s    string
		w    int
		want string
	}{
		{"abc", 5, "abc  "},
		{"abcdef", 4, "abc…"},
		{"日本語", 4, "日… "},
		{"abc", 0, ""},
	} {
		if got := Fit(c.s, c.w); got != c.want {
			t.Errorf("Fit(%q, %d) = %q, want %q", c.s, c.w, got, c.want)
		}
	}
	if got := FitLeft("/home/me/src/project", 10); got != "…c/project" {
		t.Errorf("FitLeft = %q", got)
	}
}

func TestDecodeKeys(t *testing.T) {
	got := DecodeKeys([]byte("a\x1b[A\x1b[B\x1bOA\x1b[5~\x1b[6~\x1b[H\x1b[F\r\x7f\x03\x1b[99~é"))
	var names []string
	for _, k := range got {
		if k.Name == "" {
			names = append(names, string(k.Rune))
		} else {
			names = append(names, k.Name)
		}
	}
	want := "a up down up pgup pgdown home end enter backspace ctrl-c é"
	if strings.Join(names, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(names, " "), want)
	}
}

// Rows whose agent or message holds joined emoji, variation selectors, stacked combining marks,
// right-to-left overrides or isolates still fill exactly the width, and none of the characters
// that reorder a row or change a glyph's width reaches the terminal.
func TestViewCleansHostileText(t *testing.T) {
	hostile := []string{
		"family 👨\u200d👩\u200d👧\u200d👦 done",
		"flag 🏳\ufe0f\u200d🌈 and ☺\ufe0f",
		"e\u0301\u0302\u0303\u0304 zalgo a\u0336\u0337",
		"\u202egnirts desrever\u202c then \u2067isolated\u2069",
		"zero\u200bwidth\u2060joiner\ufeffbom\u00adsoft",
		"line\u2028separator\u2029para",
	}
	var rs []Row
	for i, h := range hostile {
		rs = append(rs, Row{PaneID: fmt.Sprintf("%%%d", i), Target: fmt.Sprintf("main:%d.0", i), Agent: h, State: "blocked", Dir: h, Message: h, Since: time.Unix(900, 0)})
	}
	for _, width := range []int{120, 80, 50, 30} {
		m := &Model{Width: width, Height: 12, Now: time.Unix(1000, 0)}
		m.SetRows(rs)
		m.SetPreview(m.Selected(), hostile)
		for i, l := range m.View() {
			v := visible(l)
			if w := Width(v); w != width {
				t.Fatalf("width %d: line %d is %d cells: %q", width, i, w, v)
			}
			for _, r := range v {
				if r == 0x200d || r == 0x202e || r == 0x2067 || r == 0x200b || r == 0xfeff || r == 0xfe0f || r == 0x2028 || r == 0x00ad {
					t.Fatalf("width %d: line %d holds U+%04X: %q", width, i, r, v)
				}
			}
		}
	}
}

// The cursor follows a pane through a refresh or a new filter, and falls back to the top when the
// pane is no longer shown.
func TestCursorOn(t *testing.T) {
	m := &Model{Rows: rows(5)}
	cases := map[string]int{"%0": 0, "%3": 3, "%4": 4, "%9": 0, "": 0}
	for pane, want := range cases {
		m.Filter = ""
		if m.cursorOn(pane); m.Cursor != want {
			t.Errorf("cursorOn(%q) = %d, want %d", pane, m.Cursor, want)
		}
	}
	m.Filter = "agent-3"
	if m.cursorOn("%3"); m.Cursor != 0 {
		t.Errorf("filtered: cursorOn = %d, want 0 (the only row shown)", m.Cursor)
	}
}

// What an answer key got (typed, or refused and why) stays in the footer through the refreshes
// that come every second, until the next key.
func TestAnswerSaidStaysUntilTheNextKey(t *testing.T) {
	m := &Model{Width: 100, Height: 12, Now: time.Unix(1000, 0)}
	m.SetRows(rows(3))
	m.Press(Key{Rune: 'y'})
	if m.Answer == nil || m.Answer.PaneID != "%0" {
		t.Fatalf("y on a blocked row: answer %+v", m.Answer)
	}
	m.Answer, m.Said = nil, "taw cannot read the dialog claude in main:0.0 waits on (nothing typed)"
	for i := 0; i < 3; i++ { // a refresh: the rows again, the refresh's error cleared
		m.SetRows(rows(3))
		m.Err = ""
		if footer := visible(m.View()[m.Height-1]); !strings.Contains(footer, "taw cannot read the dialog") {
			t.Fatalf("refresh %d: the footer lost the answer: %q", i, footer)
		}
	}
	m.Press(Key{Name: "down"})
	if footer := visible(m.View()[m.Height-1]); strings.Contains(footer, "cannot read") {
		t.Fatalf("after a key the footer still says the answer: %q", footer)
	}
}
