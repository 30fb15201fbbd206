package agents_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/hookreport"
	"github.com/taw-tmux/taw/helper/integration"
)

// The docs' tables of what the catalogue (and the integration targets built from it) says are
// generated: each sits in its page between two marker lines, and TestDocsTables checks it byte
// for byte, or with TAW_UPDATE_DOCS=1 writes it. Adding an agent adds its rows to them.

const regenerate = "TAW_UPDATE_DOCS=1 go test ./helper/agents/ -run TestDocsTables"

// docBlock is one generated table: its page, its name in the marker lines, and its lines.
type docBlock struct {
	page, name string
	lines      func(t *testing.T) []string
}

var docBlocks = []docBlock{
	{"sessions.md", "resume commands", resumeTable},
	{"integrations.md", "states hooks leave standing", standingTable},
	{"integrations.md", "hook events", hookEventsTable},
	{"integrations.md", "where each integration goes", installTable},
}

func blockStart(name string) string {
	return "<!-- generated from the agent catalogue (" + name + ") by " + regenerate + ": do not edit -->"
}

func blockEnd(name string) string { return "<!-- end of " + name + " -->" }

func TestDocsTables(t *testing.T) {
	update := os.Getenv("TAW_UPDATE_DOCS") != ""
	pages := map[string]string{}
	var order []string
	for _, b := range docBlocks {
		if _, ok := pages[b.page]; !ok {
			raw, err := os.ReadFile(filepath.Join("..", "..", "docs", b.page))
			if err != nil {
				t.Fatal(err)
			}
			pages[b.page] = string(raw)
			order = append(order, b.page)
		}
		text, err := replaceBlock(pages[b.page], b.name, b.lines(t))
		if err != nil {
			t.Errorf("docs/%s: %v", b.page, err)
			continue
		}
		if text != pages[b.page] && !update {
			t.Errorf("docs/%s is stale: its table %q is not what the catalogue gives (%s); regenerate it with\n\t%s",
				b.page, b.name, firstDiff(pages[b.page], text), regenerate)
		}
		pages[b.page] = text
	}
	if !update || t.Failed() {
		return
	}
	for _, page := range order {
		path := filepath.Join("..", "..", "docs", page)
		if old, _ := os.ReadFile(path); string(old) == pages[page] {
			continue
		}
		if err := os.WriteFile(path, []byte(pages[page]), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote docs/%s", page)
	}
}

// replaceBlock puts lines between the block's marker lines in text, indented as the first
// marker is.
func replaceBlock(text, name string, lines []string) (string, error) {
	start, end := blockStart(name), blockEnd(name)
	all := strings.SplitAfter(text, "\n")
	from, to := -1, -1
	for i, l := range all {
		switch strings.TrimSpace(l) {
		case start:
			if from >= 0 {
				return "", fmt.Errorf("the marker %s is there twice", start)
			}
			from = i
		case end:
			if from >= 0 && to < 0 {
				to = i
			}
		}
	}
	if from < 0 || to < 0 {
		return "", fmt.Errorf("no generated table %q: put the lines\n\t%s\n\t%s\nwhere it goes and run\n\t%s", name, start, end, regenerate)
	}
	indent := all[from][:strings.Index(all[from], "<!--")]
	var b strings.Builder
	for _, l := range all[:from+1] {
		b.WriteString(l)
	}
	for _, l := range lines {
		if l != "" {
			b.WriteString(indent)
		}
		b.WriteString(l + "\n")
	}
	for _, l := range all[to:] {
		b.WriteString(l)
	}
	return b.String(), nil
}

// firstDiff names the first line where the page and the generated text part.
func firstDiff(have, want string) string {
	h, w := strings.Split(have, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(h) && i < len(w); i++ {
		if h[i] != w[i] {
			return fmt.Sprintf("line %d is %q, the catalogue gives %q", i+1, h[i], w[i])
		}
	}
	return fmt.Sprintf("the page has %d lines, the catalogue gives %d", len(h), len(w))
}

func code(s string) string { return "`" + s + "`" }

func codes(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = code(s)
	}
	return out
}

// group joins the ids of agents that share a row's text, in the order each text first comes.
func group(ids, texts []string) (rowIDs [][]string, rowTexts []string) {
	at := map[string]int{}
	for i, text := range texts {
		j, ok := at[text]
		if !ok {
			j = len(rowTexts)
			at[text] = j
			rowTexts = append(rowTexts, text)
			rowIDs = append(rowIDs, nil)
		}
		rowIDs[j] = append(rowIDs[j], ids[i])
	}
	return rowIDs, rowTexts
}

// resumeTable is docs/sessions.md's table of taw's own resume command for each agent. Agents
// whose command is their id and one option share a row.
func resumeTable(t *testing.T) []string {
	var ids, texts []string
	for _, a := range agents.Known {
		r := a.Resume
		if r == nil {
			continue
		}
		arg := "ID"
		if r.File {
			arg = "PATH"
		}
		words := r.Arg + " " + arg
		if r.Glued {
			words = r.Arg + arg
		}
		prog := r.Program
		sharable := prog == a.ID && a.Hooks == nil || prog == a.ID && len(a.Hooks.ResumeFlags) == 0
		if sharable {
			prog = "<agent>"
		}
		text := code(prog + " " + words)
		if r.File {
			text += " (the session file, else `ID`)"
		}
		if a.Hooks != nil && len(a.Hooks.ResumeFlags) > 0 {
			var flags []string
			for _, f := range a.Hooks.ResumeFlags {
				s := code(f.Flag + " <" + f.Key + ">")
				if f.Keep {
					s += " (kept from the pane's command when a later event lacks it)"
				}
				if f.Omit != "" {
					s += " unless it is " + code(f.Omit)
				}
				flags = append(flags, s)
			}
			text += ", plus " + strings.Join(flags, " and ") + ", from the hook's payload"
		}
		ids, texts = append(ids, a.ID), append(texts, text)
	}
	rowIDs, rowTexts := group(ids, texts)
	lines := []string{"| agent | command |", "| --- | --- |"}
	for i, text := range rowTexts {
		if len(rowIDs[i]) == 1 {
			// A row of its own names the program.
			a, _ := agents.Lookup(rowIDs[i][0])
			text = strings.Replace(text, "<agent>", a.Resume.Program, 1)
		}
		lines = append(lines, "| "+strings.Join(codes(rowIDs[i]), ", ")+" | "+text+" |")
	}
	return lines
}

// integrated are the agents taw integrates with, in the order integration status lists them.
func integrated(t *testing.T) []*agents.Agent {
	var out []*agents.Agent
	for _, tg := range integration.Targets {
		a, ok := agents.Lookup(tg.ID)
		if !ok {
			t.Fatalf("integration target %s is no catalogue agent", tg.ID)
		}
		out = append(out, a)
	}
	return out
}

// standingTable is docs/integrations.md's table of the states each integration's hooks can
// leave standing and what the screen may replace them with (Corrections), and why (Unsaid).
func standingTable(t *testing.T) []string {
	var ids, texts []string
	for _, a := range integrated(t) {
		if a.Unsaid == "" {
			t.Errorf("helper/agents/agents.go: %s has an integration but no Unsaid (what its hooks leave unsaid, for the docs)", a.ID)
		}
		stands := "none"
		if ss := a.Stands(); len(ss) > 0 {
			var parts []string
			for _, st := range ss {
				parts = append(parts, st+" → "+strings.Join(a.Corrections[st], ", "))
			}
			stands = strings.Join(parts, "; ")
		}
		ids, texts = append(ids, a.ID), append(texts, stands+" | "+a.Unsaid)
	}
	rowIDs, rowTexts := group(ids, texts)
	lines := []string{"| agent | hook's state → screen's | why |", "| --- | --- | --- |"}
	for i, text := range rowTexts {
		lines = append(lines, "| "+strings.Join(codes(rowIDs[i]), ", ")+" | "+text+" |")
	}
	return lines
}

// checkedVersions are the versions of the real agents the live suite runs (tests/agents), the
// versions whose hooks, payloads and screens taw's rules and tests follow.
func checkedVersions(t *testing.T) map[string]string {
	raw, err := os.ReadFile(filepath.Join("..", "..", "tests", "agents", "agents.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Agents []struct{ ID, Version string }
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatalf("tests/agents/agents.json: %v", err)
	}
	out := map[string]string{}
	for _, a := range f.Agents {
		out[a.ID] = a.Version
	}
	return out
}

func versionChecked(versions map[string]string, id string) string {
	if v, ok := versions[id]; ok {
		return v
	}
	return "not checked"
}

// eventReport is what a shared hook event reports (the states' letters of the docs), as
// hookreport's rules decide it for an agent with hooks h.
func eventReport(h *agents.Hooks, shared string) (string, bool) {
	switch shared {
	case "SessionStart", "Stop", "StopFailure", "Interrupt":
		return "I", true
	case "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "PreCompact", "SubagentStart", "SubagentStop", "PreModelRequest":
		return "W", true
	case "PermissionDenied":
		return "W (the automatic classifier's no: the turn goes on)", true
	case "PostCompact":
		return "I after a `manual` /compact, else W", true
	case "PreToolUse":
		if h.QuestionTool != "" {
			return "W, of " + code(h.QuestionTool) + " → B with the question", true
		}
		return "W", true
	case "PermissionRequest":
		s := "B with `Allow <tool>(<command>)?`"
		if h.QuestionTool != "" {
			s += " (of " + code(h.QuestionTool) + ": with the question)"
		}
		return s, true
	case "Notification":
		// The types every agent's notifications are read by are said once, under the table.
		if len(h.BlockingNotices) > 0 {
			return "B or I by its type, and B when its type holds " + strings.Join(codes(h.BlockingNotices), " or "), true
		}
		return "B or I by its type", true
	case "SessionEnd":
		if len(h.SessionEndKeeps) > 0 {
			return "R, but — for " + strings.Join(codes(h.SessionEndKeeps), ", "), true
		}
		return "R", true
	}
	return "", false
}

// hookEventsTable is docs/integrations.md's table of the events taw registers for each agent
// whose integration is a hook script, and what each reports.
func hookEventsTable(t *testing.T) []string {
	versions := checkedVersions(t)
	lines := []string{"| agent (`id`) | version checked | events taw registers and what each reports |", "| --- | --- | --- |"}
	for _, a := range integrated(t) {
		h := a.Hooks
		if h == nil {
			continue
		}
		var names, reports []string
		ends := false
		for _, ev := range h.Events {
			shared := ev
			if n, ok := h.Rename[ev]; ok {
				shared = n
			}
			ends = ends || shared == "SessionEnd"
			r, ok := eventReport(h, shared)
			if !ok || !hookreport.Handles(shared) {
				t.Errorf("%s registers %s (%s), for which the docs' table of hook events has no words: add them to eventReport in helper/agents/docs_test.go", a.ID, ev, shared)
				continue
			}
			names, reports = append(names, ev), append(reports, r)
		}
		rowNames, rowReports := group(names, reports)
		var parts []string
		for i, r := range rowReports {
			parts = append(parts, strings.Join(rowNames[i], ", ")+" → "+r)
		}
		text := strings.Join(parts, "; ") + "."
		switch {
		case h.SessionEnv != "":
			text += " The session is `$" + h.SessionEnv + "`, else the payload's " + strings.Join(codes(h.SessionKeys), " or ") + "."
		case len(h.SessionKeys) != 1 || h.SessionKeys[0] != "session_id":
			text += " The session is the payload's " + strings.Join(codes(h.SessionKeys), ", else ") + "."
		}
		if h.ThreadEnv != "" {
			text += " Hooks of a run of the agent nested in the session (" + code(h.ThreadEnv) + " names another one) are ignored."
		}
		if !ends {
			text += " No exit event: taw sees the shell back at its prompt."
		}
		lines = append(lines, "| "+a.Display+" ("+code(a.ID)+") | "+versionChecked(versions, a.ID)+" | "+text+" |")
	}
	return lines
}

// installTable is docs/integrations.md's table of where each integration goes: the agent's
// folder, the variables that move it, the files taw writes there and the agent's files it edits.
func installTable(t *testing.T) []string {
	lines := []string{"| agent | folder (override) | taw writes | taw edits |", "| --- | --- | --- | --- |"}
	for _, tg := range integration.Targets {
		folder := code(tg.Dir(integration.Env{Home: "~"}))
		var moved []string
		for _, v := range tg.DirEnv {
			// The variable set to "/$NAME", an absolute path as the XDG folders want.
			d := tg.Dir(integration.Env{Home: "~", Getenv: func(name string) string {
				if name == v {
					return "/$" + v
				}
				return ""
			}})
			d = strings.TrimPrefix(d, "/")
			if d == "$"+v {
				d = v
			}
			moved = append(moved, code(d))
		}
		if len(moved) > 0 {
			folder += " (" + strings.Join(moved, ", else ") + ")"
		}
		var writes []string
		for _, f := range tg.Files {
			s := code(f.Path)
			if f.Doc != "" {
				s += " (" + f.Doc + ")"
			}
			writes = append(writes, s)
		}
		written := strings.Join(writes, " and ")
		if len(tg.Obsolete) > 0 {
			written += "; an earlier taw's " + strings.Join(codes(tg.Obsolete), ", ") + " is removed"
		}
		edits := []string{}
		for _, c := range tg.Configs {
			s := code(c.Path)
			if c.Doc != "" {
				s += " (" + c.Doc + ")"
			}
			edits = append(edits, s)
		}
		edited := "nothing"
		if len(edits) > 0 {
			edited = strings.Join(edits, "; ")
		}
		lines = append(lines, "| "+code(tg.ID)+" | "+folder+" | "+written+" | "+edited+" |")
	}
	return lines
}
