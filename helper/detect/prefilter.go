package detect

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// pattern is a rule's regex with the literal text every match must hold. A screen without that
// text cannot match, so it is turned away with a substring search instead of running the regex,
// which for a pattern anchored on (?m)^ with a class in front means an attempt at every line.
type pattern struct {
	re     *regexp.Regexp
	exact  []string // must appear as written
	folded []string // must appear in the lower-cased text: the regex ignores case there
}

func newPattern(re *regexp.Regexp) *pattern {
	p := &pattern{re: re}
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return p
	}
	p.collect(tree.Simplify())
	return p
}

// collect gathers the literals that any match of r must contain: those of a concatenation's
// parts, a group's body and a repeat taken at least once. Alternations and optional parts
// require nothing, so they add nothing.
func (p *pattern) collect(r *syntax.Regexp) {
	switch r.Op {
	case syntax.OpLiteral:
		if r.Flags&syntax.FoldCase == 0 {
			p.exact = append(p.exact, string(r.Rune))
			return
		}
		for _, part := range foldSafeRuns(r.Rune) {
			p.folded = append(p.folded, part)
		}
	case syntax.OpConcat:
		for _, sub := range r.Sub {
			p.collect(sub)
		}
	case syntax.OpCapture, syntax.OpPlus:
		p.collect(r.Sub[0])
	case syntax.OpRepeat:
		if r.Min >= 1 {
			p.collect(r.Sub[0])
		}
	}
}

// foldSafeRuns are the runs of a case-folded literal that strings.ToLower of any text the regex
// matches is sure to hold: ASCII runes whose only case partners are their ASCII upper and lower
// forms. k (the Kelvin sign) and s (the long s) have others, so they end a run, as does
// anything outside ASCII.
func foldSafeRuns(rs []rune) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range rs {
		l := unicode.ToLower(r)
		if r >= utf8.RuneSelf || l == 'k' || l == 's' {
			flush()
			continue
		}
		b.WriteRune(l)
	}
	flush()
	return out
}

// find is the regex's first match in t, or nil; the literal checks come first.
func (p *pattern) find(t *text) []int {
	for _, s := range p.exact {
		if !strings.Contains(t.joined, s) {
			return nil
		}
	}
	if len(p.folded) > 0 {
		t.lowered()
		for _, s := range p.folded {
			if !strings.Contains(t.lowerJ, s) {
				return nil
			}
		}
	}
	return p.re.FindStringIndex(t.joined)
}
