package detect

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/report"
)

// Limits on one rule file, so a broken or hostile override costs little to read and to run.
const (
	maxFileBytes     = 256 << 10
	maxRules         = 256
	maxMatchers      = 2048 // tables in one file, nested ones included
	maxMatcherDepth  = 8
	maxPatterns      = 32 // contains or regex entries in one table
	maxPatternLength = 1024
	maxBottomLines   = 500
)

// RuleSet is the compiled rules of one agent, from one file.
type RuleSet struct {
	Agent  string // the agent id
	Source string // where the rules came from: "embedded rules/claude.toml" or an override path
	rules  []*rule
}

type rule struct {
	id       string
	state    string
	priority int
	region   region
	match    *matcher
	line     int
	// setup: the rule reads a dialog of the agent's start-up (trust this folder, sign in), which
	// asks before any turn: answering it ends none.
	setup bool
}

// matcher is one table of conditions: every contains and regex entry must match, every table in
// all must match, at least one in any, none in not. Its region, when set, replaces the rule's for
// it and the tables inside it.
type matcher struct {
	region   *region
	contains []string // lower case: contains ignores case
	regex    []*pattern
	all      []*matcher
	any      []*matcher
	not      []*matcher
}

var ruleIDRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`) })

var (
	fileKeys    = []string{"format", "agent", "rule"}
	ruleKeys    = []string{"id", "state", "priority", "region", "setup", "contains", "regex", "all", "any", "not"}
	matcherKeys = []string{"region", "contains", "regex", "all", "any", "not"}
)

// ParseRules reads one agent's rule file. file names it in errors, and its base name without
// ".toml" must be the agent's id, as must the file's agent key.
func ParseRules(file string, data []byte) (*RuleSet, error) {
	fail := func(line int, format string, args ...any) error {
		return &config.Problem{Path: file, Line: line, Message: fmt.Sprintf(format, args...)}
	}
	if len(data) > maxFileBytes {
		return nil, fail(0, "file is %d bytes, more than the %d a rule file may have", len(data), maxFileBytes)
	}
	root, err := parseTOML(data)
	if err != nil {
		if le, ok := err.(*lineError); ok {
			return nil, fail(le.line, "%s", le.msg)
		}
		return nil, fail(0, "%v", err)
	}
	d := &decoder{fail: fail}
	if err := d.checkKeys(root, fileKeys, "the file"); err != nil {
		return nil, err
	}
	if v, ok := root.vals["format"]; ok {
		if v.kind != kindInt || v.num != 1 {
			return nil, fail(v.line, "format must be 1, the only format taw knows")
		}
	}
	want := strings.TrimSuffix(path.Base(file), ".toml")
	av, ok := root.vals["agent"]
	if !ok {
		return nil, fail(1, "missing agent = %q at the top of the file", want)
	}
	if av.kind != kindString {
		return nil, fail(av.line, "agent must be a string, not %s", av.kind)
	}
	a, known := agents.Lookup(av.str)
	if !known || !a.Detected {
		return nil, fail(av.line, "agent %q is not one taw detects (rule files are for: %s)", av.str, detectedIDs())
	}
	if a.ID != want {
		return nil, fail(av.line, "agent %q does not match the file name: name the file %s.toml", av.str, a.ID)
	}
	set := &RuleSet{Agent: a.ID, Source: file}
	rv, ok := root.vals["rule"]
	if !ok {
		return set, nil // no rules: every screen is idle
	}
	if !rv.tableArray {
		return nil, fail(rv.line, "rules are written as [[rule]] tables")
	}
	if len(rv.items) > maxRules {
		return nil, fail(rv.items[maxRules].line, "more than %d rules", maxRules)
	}
	ids := map[string]int{}
	for _, item := range rv.items {
		r, err := d.rule(item.table)
		if err != nil {
			return nil, err
		}
		if first, dup := ids[r.id]; dup {
			return nil, fail(r.line, "rule id %q is used twice (first on line %d)", r.id, first)
		}
		ids[r.id] = r.line
		set.rules = append(set.rules, r)
	}
	// Highest priority first; a tie goes to the rule written first.
	sort.SliceStable(set.rules, func(i, j int) bool { return set.rules[i].priority > set.rules[j].priority })
	return set, nil
}

func detectedIDs() string {
	var ids []string
	for _, a := range agents.Detected() {
		ids = append(ids, a.ID)
	}
	return strings.Join(ids, ", ")
}

type decoder struct {
	fail     func(line int, format string, args ...any) error
	matchers int
}

func (d *decoder) checkKeys(t *tomlTable, allowed []string, where string) error {
	for _, k := range t.keys {
		ok := false
		for _, a := range allowed {
			ok = ok || k == a
		}
		if !ok {
			return d.fail(t.lines[k], "unknown key %q in %s (expected: %s)", k, where, strings.Join(allowed, ", "))
		}
	}
	return nil
}

func (d *decoder) rule(t *tomlTable) (*rule, error) {
	if err := d.checkKeys(t, ruleKeys, "a [[rule]]"); err != nil {
		return nil, err
	}
	r := &rule{line: t.line, region: region{kind: regionScreen}}
	idv, ok := t.vals["id"]
	if !ok || idv.kind != kindString {
		return nil, d.fail(t.line, "a [[rule]] needs an id = \"…\"")
	}
	if !ruleIDRE().MatchString(idv.str) {
		return nil, d.fail(idv.line, "rule id %q: use lower-case letters, digits, - and _ (at most 64)", idv.str)
	}
	r.id = idv.str
	sv, ok := t.vals["state"]
	if !ok {
		return nil, d.fail(t.line, "rule %q needs a state (expected: idle, working, blocked)", r.id)
	}
	if sv.kind != kindString || (sv.str != report.StateIdle && sv.str != report.StateWorking && sv.str != report.StateBlocked) {
		return nil, d.fail(sv.line, "rule %q: invalid state %s (expected: idle, working, blocked)", r.id, quoteValue(sv))
	}
	r.state = sv.str
	if pv, ok := t.vals["priority"]; ok {
		if pv.kind != kindInt || pv.num < -1_000_000 || pv.num > 1_000_000 {
			return nil, d.fail(pv.line, "rule %q: priority must be a whole number between -1000000 and 1000000", r.id)
		}
		r.priority = int(pv.num)
	}
	if v, ok := t.vals["setup"]; ok {
		if v.kind != kindBool || r.state != report.StateBlocked {
			return nil, d.fail(v.line, "rule %q: setup is true or false, and only for a blocked rule", r.id)
		}
		r.setup = v.b
	}
	if rv, ok := t.vals["region"]; ok {
		reg, err := d.region(rv)
		if err != nil {
			return nil, err
		}
		r.region = *reg
	}
	m, err := d.matcher(t, 1, "rule "+strconv.Quote(r.id))
	if err != nil {
		return nil, err
	}
	r.match = m
	return r, nil
}

func quoteValue(v *tomlValue) string {
	if v.kind == kindString {
		return strconv.Quote(v.str)
	}
	return v.kind.String()
}

// matcher reads the condition keys of a rule or of a table inside all, any or not.
func (d *decoder) matcher(t *tomlTable, depth int, where string) (*matcher, error) {
	d.matchers++
	if d.matchers > maxMatchers {
		return nil, d.fail(t.line, "more than %d condition tables in the file", maxMatchers)
	}
	if depth > maxMatcherDepth {
		return nil, d.fail(t.line, "%s: conditions nested more than %d deep", where, maxMatcherDepth)
	}
	m := &matcher{}
	if depth > 1 {
		if err := d.checkKeys(t, matcherKeys, "a condition table"); err != nil {
			return nil, err
		}
		if rv, ok := t.vals["region"]; ok {
			reg, err := d.region(rv)
			if err != nil {
				return nil, err
			}
			m.region = reg
		}
	}
	if v, ok := t.vals["contains"]; ok {
		strs, err := d.strings(v, where, "contains")
		if err != nil {
			return nil, err
		}
		for _, s := range strs {
			m.contains = append(m.contains, strings.ToLower(s))
		}
	}
	if v, ok := t.vals["regex"]; ok {
		strs, err := d.strings(v, where, "regex")
		if err != nil {
			return nil, err
		}
		for _, s := range strs {
			re, err := compileRegex(s)
			if err != nil {
				return nil, d.fail(v.line, "%s: %v", where, err)
			}
			m.regex = append(m.regex, newPattern(re))
		}
	}
	for _, key := range []string{"all", "any", "not"} {
		v, ok := t.vals[key]
		if !ok {
			continue
		}
		if v.kind != kindArray || len(v.items) == 0 {
			return nil, d.fail(v.line, "%s: %s must be a non-empty array of tables: %s = [{ contains = [\"…\"] }]", where, key, key)
		}
		for _, item := range v.items {
			if item.kind != kindTable {
				return nil, d.fail(item.line, "%s: every entry of %s must be a table such as { contains = [\"…\"] }, not %s", where, key, item.kind)
			}
			sub, err := d.matcher(item.table, depth+1, where)
			if err != nil {
				return nil, err
			}
			switch key {
			case "all":
				m.all = append(m.all, sub)
			case "any":
				m.any = append(m.any, sub)
			default:
				m.not = append(m.not, sub)
			}
		}
	}
	if len(m.contains) == 0 && len(m.regex) == 0 && len(m.all) == 0 && len(m.any) == 0 {
		// A table of only "not" would match almost every screen.
		return nil, d.fail(t.line, "%s: a condition needs contains, regex, all or any (not alone matches everything)", where)
	}
	return m, nil
}

// strings reads a string or an array of strings.
func (d *decoder) strings(v *tomlValue, where, key string) ([]string, error) {
	items := []*tomlValue{v}
	if v.kind == kindArray {
		items = v.items
	}
	if len(items) == 0 || len(items) > maxPatterns {
		return nil, d.fail(v.line, "%s: %s needs 1 to %d strings", where, key, maxPatterns)
	}
	var out []string
	for _, it := range items {
		if it.kind != kindString {
			return nil, d.fail(it.line, "%s: %s takes strings, not %s", where, key, it.kind)
		}
		if it.str == "" || len(it.str) > maxPatternLength {
			return nil, d.fail(it.line, "%s: a %s string must have 1 to %d bytes", where, key, maxPatternLength)
		}
		out = append(out, it.str)
	}
	return out, nil
}

func (d *decoder) region(v *tomlValue) (*region, error) {
	if v.kind != kindString {
		return nil, d.fail(v.line, "region must be a string (expected: %s)", regionNames)
	}
	r, err := parseRegion(v.str)
	if err != nil {
		return nil, d.fail(v.line, "%v", err)
	}
	return r, nil
}

// compileRegex compiles a rule's regex, explaining the differences from other regex dialects
// that rules ported from elsewhere run into: Go's regexp is RE2.
func compileRegex(s string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(s)
	if err == nil {
		return re, nil
	}
	hint := ""
	switch {
	case strings.Contains(s, `\p{Alphabetic}`) || strings.Contains(s, `\p{Alpha}`):
		hint = `; Go has no \p{Alphabetic}: use \p{L}`
	case strings.Contains(s, `\u`):
		hint = `; Go writes a code point as \x{2800}, not \u2800`
	case strings.Contains(s, "(?<") || strings.Contains(s, "(?=") || strings.Contains(s, "(?!") || strings.Contains(s, `\1`):
		hint = "; Go's regexp (RE2) has no look-around or back-references"
	}
	return nil, fmt.Errorf("regex %q: %v%s", s, strings.TrimPrefix(err.Error(), "error parsing regexp: "), hint)
}
