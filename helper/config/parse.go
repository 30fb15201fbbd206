package config

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/coded"
)

// Problem is one thing wrong at a place in a file taw reads (its config, a plugin's manifest, a
// screen-rule file), on the line it stands on (0: the whole file): taw's one file-position error.
type Problem struct {
	Path    string
	Line    int
	Key     string
	Message string
}

func (p *Problem) Error() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.Path, p.Line, p.Message)
	}
	return fmt.Sprintf("%s: %s", p.Path, p.Message)
}

// ErrorCode is the stable code of every configuration problem.
func (p *Problem) ErrorCode() string { return coded.ConfigInvalid }

// maxProblems bounds how many bad lines one file reports: past that the file is not worth
// reading line by line.
const maxProblems = 50

// Parse reads a configuration file's bytes over the defaults. Unknown keys and bad values are
// problems with the line they stand on; a bad value keeps its default and the rest of the file
// applies; a file that is not TOML at all is all defaults.
func Parse(path string, data []byte) (Config, []error) {
	cfg := Default()
	data, problems := checkStrings(path, data)
	problems = append(problems, Decode(path, data, &cfg, Default, "taw config default lists every key")...)
	reported := map[int]bool{}
	for _, p := range problems {
		if pr, ok := p.(*Problem); ok {
			reported[pr.Line] = true
		}
	}
	for _, p := range validate(path, data, &cfg) {
		// A value already reported as bad is not reported again as missing.
		if pr, ok := p.(*Problem); !ok || !reported[pr.Line] {
			problems = append(problems, p)
		}
	}
	// Each check reports in its own pass; the person reads the file top down.
	sort.SliceStable(problems, func(i, j int) bool { return problemLine(problems[i]) < problemLine(problems[j]) })
	return cfg, problems
}

// problemLine is the line a problem stands on, 0 for one about the whole file.
func problemLine(err error) int {
	if pr, ok := err.(*Problem); ok {
		return pr.Line
	}
	return 0
}

// stringKeys take a TOML string (durations and choices); the decoder hands such types a number's
// text without saying where it stood, so numbers are caught here, with their line.
var stringKeys = map[string]bool{
	"notify.recheck_delay": true, "notify.rate_limit": true, "notify.tmux_message_duration": true,
	"notify.terminal_protocol": true, "notify.terminal_passthrough": true, "hooks.timeout": true,
}

// checkStrings reports every key of stringKeys whose value is not a string, and returns the file
// with those lines left out.
func checkStrings(path string, data []byte) ([]byte, []error) {
	var problems []error
	var bad []int
	walkKeys(data, func(k string, line int, v *unstable.Node) {
		if v != nil && stringKeys[k] && v.Kind != unstable.String {
			problems = append(problems, badValue(path, line, k, "cannot decode TOML "+strings.ToLower(v.Kind.String())+" into it"))
			bad = append(bad, line)
		}
	})
	if len(bad) == 0 {
		return data, nil
	}
	lines := bytes.Split(data, []byte("\n"))
	for _, l := range bad {
		if l >= 1 && l <= len(lines) {
			lines[l-1] = nil
		}
	}
	return bytes.Join(lines, []byte("\n")), problems
}

// Decode reads data into v strictly: every unknown key and every bad value is a Problem. A line
// whose value cannot be read is left out and the rest decoded again, so one bad value does not
// hide the next. On a syntax error v is reset with fresh (when given) and only that error is
// reported, since nothing after it can be trusted.
// hint, when given, says where the keys are listed.
func Decode[T any](path string, data []byte, v *T, fresh func() T, hint string) []error {
	lines := bytes.Split(data, []byte("\n"))
	skipped := map[int]bool{}
	var problems []error
	for {
		if fresh != nil {
			*v = fresh()
		}
		dec := toml.NewDecoder(bytes.NewReader(bytes.Join(lines, []byte("\n"))))
		dec.DisallowUnknownFields()
		err := dec.Decode(v)
		if err == nil {
			return problems
		}
		var strict *toml.StrictMissingError
		if errors.As(err, &strict) {
			for _, e := range strict.Errors {
				row, _ := e.Position()
				problems = append(problems, unknownKey(path, row, joinKey(e.Key()), hint))
			}
			return problems
		}
		var decErr *toml.DecodeError
		if !errors.As(err, &decErr) {
			return append(problems, &Problem{Path: path, Message: err.Error()})
		}
		row, _ := decErr.Position()
		key := joinKey(decErr.Key())
		if key == "" || row < 1 || row > len(lines) || skipped[row] || len(problems) >= maxProblems {
			// A syntax error: nothing the decoder read can be trusted.
			if fresh != nil {
				*v = fresh()
			}
			return append(problems, &Problem{Path: path, Line: row, Message: strings.TrimPrefix(decErr.Error(), "toml: ") + ": fix the TOML syntax"})
		}
		if strings.HasPrefix(decErr.Error(), "toml: unknown field") {
			problems = append(problems, unknownKey(path, row, key, hint))
		} else {
			problems = append(problems, badValue(path, row, key, decErr.Error()))
		}
		skipped[row] = true
		lines[row-1] = nil
	}
}

func unknownKey(path string, row int, key, hint string) *Problem {
	msg := fmt.Sprintf("unknown key %s: remove it or check its spelling", key)
	if hint != "" {
		msg += " (" + hint + ")"
	}
	return &Problem{Path: path, Line: row, Key: key, Message: msg}
}

func badValue(path string, row int, key, msg string) *Problem {
	msg = strings.TrimPrefix(msg, "toml: ")
	if strings.HasPrefix(msg, "cannot decode TOML ") {
		// The decoder names Go types; say what the key wants instead.
		got, _, _ := strings.Cut(strings.TrimPrefix(msg, "cannot decode TOML "), " ")
		msg = fmt.Sprintf("a TOML %s is not what this key takes", got)
		if want, ok := expect[stripIndex(key)]; ok {
			msg += ": write " + want
		}
	}
	return &Problem{Path: path, Line: row, Key: key, Message: fmt.Sprintf("bad value for %s: %s; its default is used", key, msg)}
}

// expect says, per key, what a good value looks like.
var expect = map[string]string{
	"session.resume_agents_on_restore": "true or false",
	"notify.enabled":                   "true or false",
	"notify.blocked":                   "true or false",
	"notify.finished":                  "true or false",
	"notify.recheck_delay":             `a duration such as "1s"`,
	"notify.rate_limit":                `a duration such as "5s"`,
	"notify.tmux_message":              "true or false",
	"notify.tmux_message_duration":     `a duration such as "5s"`,
	"notify.bell":                      "true or false",
	"notify.terminal":                  "true or false",
	"notify.terminal_protocol":         `"auto", "osc9", "osc777" or "osc99"`,
	"notify.terminal_passthrough":      `"auto", "on" or "off"`,
	"notify.desktop":                   "true or false",
	"notify.sound":                     "true or false",
	"notify.sound_command":             `an array of strings such as ["paplay", "/usr/share/sounds/freedesktop/stereo/complete.oga"]`,
	"notify.agents":                    "a table of agent names set to true or false",
	"hooks.timeout":                    `a duration such as "10s"`,
	"hooks.commands":                   "[[hooks.commands]] tables with on and command",
	"hooks.commands.on":                `an event name such as "blocked"`,
	"hooks.commands.command":           `an array of strings such as ["notify-me", "--urgent"]`,
	"plugins.enabled":                  "true or false",
}

func stripIndex(key string) string {
	parts := strings.Split(key, ".")
	out := parts[:0]
	for _, p := range parts {
		if p != "" && strings.Trim(p, "0123456789") == "" {
			continue
		}
		out = append(out, p)
	}
	if len(out) == 3 && out[0] == "notify" && out[1] == "agents" {
		return "notify.agents"
	}
	return strings.Join(out, ".")
}

// validate checks what the types cannot: [[hooks.commands]] entries need a known event and a
// command. A bad entry is dropped.
func validate(path string, data []byte, cfg *Config) []error {
	lines := KeyLines(data)
	var problems []error
	var kept []Hook
	for i, h := range cfg.Hooks.Commands {
		at := fmt.Sprintf("hooks.commands.%d", i)
		line := lines[at]
		if l, ok := lines[at+".on"]; ok {
			line = l
		}
		ev, ok := CanonicalEvent(h.On)
		switch {
		case h.On == "":
			problems = append(problems, &Problem{Path: path, Line: line, Key: at + ".on", Message: fmt.Sprintf("hook %d has no on: name the event (%s or \"*\")", i+1, strings.Join(Events, ", "))})
			continue
		case !ok:
			problems = append(problems, &Problem{Path: path, Line: line, Key: at + ".on", Message: fmt.Sprintf("unknown event %q: use one of %s, or \"*\" for every event", h.On, strings.Join(Events, ", "))})
			continue
		}
		if len(h.Command) == 0 || h.Command[0] == "" {
			if l, ok := lines[at+".command"]; ok {
				line = l
			}
			problems = append(problems, &Problem{Path: path, Line: line, Key: at + ".command", Message: fmt.Sprintf("hook %d has no command: give an argv array such as command = [\"notify-me\", \"--urgent\"]", i+1)})
			continue
		}
		h.On = ev
		kept = append(kept, h)
	}
	cfg.Hooks.Commands = kept
	// Agents go by several names; the switches are kept under the one panes carry.
	agentsOn := make(map[string]bool, len(cfg.Notify.Agents))
	for name, on := range cfg.Notify.Agents {
		agentsOn[agents.Canonical(name)] = on
	}
	cfg.Notify.Agents = agentsOn
	return problems
}

func joinKey(k []string) string { return strings.Join(k, ".") }
