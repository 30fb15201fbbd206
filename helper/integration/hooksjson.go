package integration

import (
	"bytes"
	"fmt"
)

// Hook entries in JSON configs. Two shapes exist among the agents:
//
//   - grouped (Claude Code and the agents that copied its format):
//     {"hooks": {"Stop": [{"matcher": "...", "hooks": [{"type": "command", "command": "..."}]}]}}
//   - flat (Cursor): {"version": 1, "hooks": {"stop": [{"command": "..."}]}}
//
// taw adds one entry of its own per event and never edits another tool's entry.

type hookGroup struct {
	Hooks []hookCommand `json:"hooks"`
}

type hookCommand struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

type flatHook struct {
	Command string `json:"command"`
}

// emptyDoc is what a config taw created from nothing holds once taw's entries are gone.
var emptyDoc = []byte("{}\n")

func parseConfigObject(doc []byte) ([]byte, *jsonNode, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		doc = emptyDoc
	}
	root, err := parseJSONC(doc)
	if err != nil {
		return nil, nil, err
	}
	if root.kind != '{' {
		return nil, nil, &ParseError{Msg: "the top level is not an object"}
	}
	return doc, root, nil
}

// hooksObject finds (or adds) the root's "hooks" object.
func hooksObject(doc []byte, root *jsonNode, create bool) ([]byte, *jsonNode, error) {
	_, h := root.member("hooks")
	if h == nil {
		if !create {
			return doc, nil, nil
		}
		doc = insertMember(doc, root, "hooks", map[string]any{})
		var err error
		if _, root, err = parseConfigObject(doc); err != nil {
			return nil, nil, err
		}
		_, h = root.member("hooks")
	}
	if h.kind != '{' {
		return nil, nil, &ParseError{Msg: `"hooks" is not an object`}
	}
	return doc, h, nil
}

// AddHooks registers command(event) for each event, as an entry of taw's own; an event that
// already runs that command is left alone, and taw's entries that run anything else (a script
// moved since, an event taw no longer uses) go. grouped picks the shape; timeout 0 leaves the
// agent's default.
func AddHooks(doc []byte, events []string, command func(event string) string, ours func(string) bool, grouped bool, timeout int) ([]byte, error) {
	current := map[string]bool{}
	for _, ev := range events {
		current[command(ev)] = true
	}
	if len(bytes.TrimSpace(doc)) > 0 {
		var err error
		if doc, err = RemoveHooks(doc, func(c string) bool { return ours(c) && !current[c] }, grouped); err != nil {
			return nil, err
		}
	}
	doc, root, err := parseConfigObject(doc)
	if err != nil {
		return nil, err
	}
	for _, ev := range events {
		var h *jsonNode
		if doc, h, err = hooksObject(doc, root, true); err != nil {
			return nil, err
		}
		var entry any = flatHook{Command: command(ev)}
		if grouped {
			entry = hookGroup{Hooks: []hookCommand{{Type: "command", Command: command(ev), Timeout: timeout}}}
		}
		_, list := h.member(ev)
		switch {
		case list == nil:
			doc = insertMember(doc, h, ev, []any{entry})
		case list.kind != '[':
			return nil, &ParseError{Msg: fmt.Sprintf("hooks.%s is not a list", ev)}
		case len(ourEntries(doc, list, func(c string) bool { return c == command(ev) }, grouped)) > 0:
			continue
		default:
			doc = appendElem(doc, list, entry)
		}
		if doc, root, err = parseConfigObject(doc); err != nil {
			return nil, err
		}
	}
	return doc, nil
}

// ourEntries lists, for each element of an event's list, whether taw's command is in it: the
// element indexes that hold one.
func ourEntries(doc []byte, list *jsonNode, ours func(string) bool, grouped bool) []int {
	var idx []int
	for i, e := range list.elems {
		if e.kind != '{' {
			continue
		}
		if !grouped {
			if _, c := e.member("command"); ours(c.stringValue(doc)) {
				idx = append(idx, i)
			}
			continue
		}
		if _, hs := e.member("hooks"); hs != nil && hs.kind == '[' {
			for _, hc := range hs.elems {
				if hc.kind != '{' {
					continue
				}
				if _, c := hc.member("command"); ours(c.stringValue(doc)) {
					idx = append(idx, i)
					break
				}
			}
		}
	}
	return idx
}

// RemoveHooks takes out every entry running a command ours recognises, then the event lists
// and the "hooks" object that this leaves empty. Everything else keeps its bytes.
func RemoveHooks(doc []byte, ours func(string) bool, grouped bool) ([]byte, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		return doc, nil
	}
	doc, root, err := parseConfigObject(doc)
	if err != nil {
		return nil, err
	}
	touched := map[string]bool{}
	for changed := true; changed; {
		changed = false
		_, h, err := hooksObject(doc, root, false)
		if err != nil || h == nil {
			return doc, err
		}
		for _, m := range h.members {
			if m.val.kind != '[' {
				continue
			}
			if next, ok := removeOneOf(doc, m.val, ours, grouped); ok {
				doc, changed, touched[m.key] = next, true, true
				break
			}
			if touched[m.key] && len(m.val.elems) == 0 {
				i, _ := h.member(m.key)
				doc, changed = removeMember(doc, h, i), true
				delete(touched, m.key)
				touched["hooks"] = true
				break
			}
		}
		if !changed && touched["hooks"] && len(h.members) == 0 {
			i, _ := root.member("hooks")
			doc, changed = removeMember(doc, root, i), true
			delete(touched, "hooks")
		}
		if changed {
			if doc, root, err = parseConfigObject(doc); err != nil {
				return nil, err
			}
		}
	}
	return doc, nil
}

// removeOneOf removes one of taw's entries from an event list, if it has one: the whole entry
// when it runs only taw's command, else taw's command inside it.
func removeOneOf(doc []byte, list *jsonNode, ours func(string) bool, grouped bool) ([]byte, bool) {
	idx := ourEntries(doc, list, ours, grouped)
	if len(idx) == 0 {
		return doc, false
	}
	if grouped {
		_, hs := list.elems[idx[0]].member("hooks")
		var mine []int
		for j, hc := range hs.elems {
			if _, c := hc.member("command"); hc.kind == '{' && ours(c.stringValue(doc)) {
				mine = append(mine, j)
			}
		}
		if len(mine) < len(hs.elems) {
			return removeElem(doc, hs, mine[0]), true
		}
	}
	return removeElem(doc, list, idx[0]), true
}
