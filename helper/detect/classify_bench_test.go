package detect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// BenchmarkClassifyFixtures classifies every captured screen once per iteration: the cost of the
// rules as shipped, over what agents really draw.
func BenchmarkClassifyFixtures(b *testing.B) {
	rs, errs := Load(func(string) string { return "" })
	for _, err := range errs {
		b.Fatal(err)
	}
	paths, _ := filepath.Glob("testdata/*/*.txt")
	var fs []fixture
	t := &testing.T{}
	for _, p := range paths {
		fs = append(fs, readFixture(t, p))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range fs {
			rs.Classify(f.agent, f.screen)
		}
	}
}

// BenchmarkClassifyLongIdle is Claude Code's idle input box under a 200-line transcript, the
// screen where every rule is tried before the last one decides.
func BenchmarkClassifyLongIdle(b *testing.B) {
	rs, _ := Load(func(string) string { return "" })
	rule := strings.Repeat("─", 100)
	var lines []string
	for len(lines) < 194 {
		lines = append(lines, "● Read(helper/detect/rules.go)", "  ⎿  Read 312 lines", "",
			"● The loader keeps the embedded rules when an override is broken, and reports the file and",
			"  line. I'll add a test for that next.", "")
	}
	lines = append(lines[:194], "✻ Worked for 2m 3s", "", rule, "❯\u00a0", rule, "  ? for shortcuts")
	s := Screen{Lines: lines, Title: "✳ Claude Code"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rs.Classify("claude", s)
	}
}

// The blocks lower skips have no rune that lower-casing changes.
func TestCaselessBlocks(t *testing.T) {
	for _, b := range caselessBlocks {
		for r := b[0]; r <= b[1]; r++ {
			if unicode.ToLower(r) != r {
				t.Errorf("U+%04X lower-cases to U+%04X, so its block is not caseless", r, unicode.ToLower(r))
			}
		}
	}
}

// lower gives what strings.ToLower gives, on screens and on bytes that are not UTF-8.
func TestLowerIsToLower(t *testing.T) {
	paths, _ := filepath.Glob("testdata/*/*.txt")
	ins := []string{"", "abc", "ABC", "╭─ Ünïcode ─╮", "ǅ", "\xff\xfe ok", "ok \xe2\x94", "İstanbul", "Ωmega", "⠋ Working", "\uFFFD"}
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		ins = append(ins, string(data))
	}
	for _, s := range ins {
		if got, want := lower(s), strings.ToLower(s); got != want {
			t.Errorf("lower(%.40q) = %.40q, want %.40q", s, got, want)
		}
	}
}

// Every region's lower-case text is strings.ToLower of its text, whichever regions were cut first.
func TestRegionsLowerLikeToLower(t *testing.T) {
	regions := []string{"bottom:3", "prompt_box", "above_prompt_box:6", "screen", "below_prompt_box", "title", "above_prompt_box", "bottom:30"}
	paths, _ := filepath.Glob("testdata/*/*.txt")
	for _, p := range paths {
		f := readFixture(t, p)
		v := newView(f.screen)
		for _, name := range regions {
			r, err := parseRegion(name)
			if err != nil {
				t.Fatal(err)
			}
			tx := v.region(*r)
			tx.lowered()
			if want := strings.ToLower(strings.Join(tx.lines, "\n")); tx.lowerJ != want || tx.joined != strings.Join(tx.lines, "\n") {
				t.Errorf("%s: region %s: lower-case text %.60q, want %.60q", p, name, tx.lowerJ, want)
			}
		}
	}
}

// drawing reads from bytes what caseless reads from runes, within the caseless blocks.
func TestDrawingIsCaseless(t *testing.T) {
	for r := rune(0x1000); r < 0x3000; r++ {
		s := string(r) + "x"
		if drawing(s) && !caseless(r) {
			t.Errorf("drawing takes U+%04X, which is not caseless", r)
		}
	}
	for _, s := range []string{"\xe2\x94", "\xe2\x94x", "\xe2", "\xe2\xb0\x80"} {
		if drawing(s) {
			t.Errorf("drawing(%q) is true, but it is not a rune in its ranges", s)
		}
	}
}
