package prompt

import (
	"strconv"
	"strings"
)

// dialog is how one agent draws its dialogs and which keys they take. Every agent's dialog
// knowledge lives in the table below, keyed by the catalogue's agent ids.
type dialog struct {
	read     func(lines []string) *Prompt // the agent's own reader; nil: the common one only
	next     string                       // the key that moves the cursor to the next choice
	prev     string
	confirm  string
	noCursor bool     // its menus draw the cursor in colour only: the common reader takes them without one
	field    []string // the keys that open the field of the choice that takes text, once the cursor is on it
	// pick: a choice's number key goes to it, and on the choice that takes text opens its field
	// at once; fieldOpen says whether the screen shows that field open. A typed answer then needs
	// no cursor taw can see.
	pick      bool
	fieldOpen func(lines []string, o Option) bool
	command   func(context []string) (tool, command string)
}

var dialogs = map[string]dialog{
	"claude":   {command: claudeCommand},
	"codex":    {command: dollarCommand, field: []string{"Tab"}}, // "None of the above … add details in notes (tab)"
	"gemini":   {command: geminiCommand},
	"qwen":     {command: geminiCommand}, // Gemini CLI's fork
	"copilot":  {read: copilotQuestion, command: boxedCommand},
	"cline":    {read: clineDialog},
	"opencode": {read: opencodeDialog, noCursor: true, pick: true, fieldOpen: opencodeFieldOpen, command: dollarCommand},
}

func init() {
	// Kilo Code is OpenCode's fork: the same panels and forms.
	dialogs["kilo"] = dialogs["opencode"]
}

func dialogFor(agentID string) dialog {
	d := dialogs[agentID]
	if d.next == "" {
		d.next, d.prev = "Down", "Up"
	}
	if d.confirm == "" {
		d.confirm = "Enter"
	}
	if d.command == nil {
		d.command = boxedCommand
	}
	return d
}

var claudeHeadingRE = lazyRE(`^(\w+) (command|file)$`)

// claudeCommand reads Claude Code's "Bash command" heading and the command under it.
func claudeCommand(ctx []string) (string, string) {
	for i := len(ctx) - 1; i >= 0; i-- {
		m := claudeHeadingRE().FindStringSubmatch(ctx[i])
		if m == nil {
			continue
		}
		under := ctx[i+1:]
		// 2.1.3xx draws the command in a dashed box, below a tip and the tool's description
		// ("Run shell command").
		for j, l := range under {
			if dashedRule(l) {
				for _, c := range under[j+1:] {
					if c != "" && !dashedRule(c) {
						return m[1], c
					}
				}
			}
		}
		for _, l := range under {
			// Versions before the box put a tip under the heading ("Tip: auto mode handles
			// these prompts…"): the command is the first line that is not one.
			if l != "" && !strings.HasPrefix(l, "Tip:") {
				return m[1], l
			}
		}
	}
	return boxedCommand(ctx)
}

// dashedRule says whether l is a rule of dashes ("╌╌╌…"), the edge of Claude Code's command box.
func dashedRule(l string) bool {
	return len(l) >= 3*len("╌") && strings.Trim(l, "╌") == ""
}

var dollarRE = lazyRE(`^\$ (\S.*)$`)

// dollarCommand reads a "$ command" line, the way Codex and OpenCode show a shell command.
func dollarCommand(ctx []string) (string, string) {
	for i := len(ctx) - 1; i >= 0; i-- {
		if m := dollarRE().FindStringSubmatch(ctx[i]); m != nil {
			return "shell", m[1]
		}
	}
	return boxedCommand(ctx)
}

var geminiToolRE = lazyRE(`^\? (\S+)\s+(\S.*?)(\s+←)?$`)

// geminiCommand reads Gemini CLI's "? Shell  command" header line, and Qwen Code's, which ends
// in an arrow.
func geminiCommand(ctx []string) (string, string) {
	for i := len(ctx) - 1; i >= 0; i-- {
		if m := geminiToolRE().FindStringSubmatch(ctx[i]); m != nil {
			_, boxed := boxedCommand(ctx[i:])
			if boxed == "" {
				boxed = m[2]
			}
			return m[1], boxed
		}
	}
	return boxedCommand(ctx)
}

// boxedCommand is the line in the innermost box above the choices, where Copilot and Gemini CLI
// draw the command they ask about.
func boxedCommand(ctx []string) (string, string) {
	for i := len(ctx) - 2; i >= 0; i-- {
		if strings.HasPrefix(ctx[i], "╭") && ctx[i+1] != "" && !isRuleLine(ctx[i+1]) {
			return "shell", ctx[i+1]
		}
	}
	return "", ""
}

// clineDialog reads Cline's two panels: "Cline needs permission" (the tool, its "$ command",
// and "[y] Approve   [n] Deny", picked by those keys) and "Cline is asking a question" (the
// question, then its choices one a line, the cursor's marked "> ", the last a field).
func clineDialog(lines []string) *Prompt {
	for i := len(lines) - 1; i >= 0; i-- {
		switch lines[i] {
		case "Cline needs permission":
			p := &Prompt{Kind: KindPermission}
			for _, l := range lines[i+1:] {
				switch {
				case l == "":
				case p.Question == "":
					p.Question = l
				case dollarRE().MatchString(l):
					p.Command = dollarRE().FindStringSubmatch(l)[1]
				case strings.HasPrefix(l, "[y] "):
					for n, f := range columnGapRE().Split(l, -1) {
						if key, label, ok := strings.Cut(f, "] "); ok && strings.HasPrefix(key, "[") {
							p.Options = append(p.Options, Option{Number: n + 1, Label: label, Key: strings.TrimPrefix(key, "[")})
						}
					}
					return p
				case p.Tool == "":
					p.Tool = l
				}
			}
			return nil
		case "Cline is asking a question":
			p := &Prompt{Kind: KindQuestion}
			for _, l := range lines[i+1:] {
				if p.Question == "" {
					p.Question = l
					continue
				}
				if l == "" {
					if len(p.Options) > 0 {
						break
					}
					continue
				}
				label, on := strings.CutPrefix(l, "> ")
				o := Option{Number: len(p.Options) + 1, Label: label, Text: strings.HasPrefix(label, "Type a response")}
				if on {
					p.Selected = o.Number
				}
				p.Options = append(p.Options, o)
			}
			if len(p.Options) == 0 {
				return nil
			}
			// The last choice is the field: with the cursor on it, it shows what is typed (and a
			// "|" caret, read as a box's side) in place of its "Type a response..." placeholder.
			// It is the same choice.
			if last := &p.Options[len(p.Options)-1]; p.Selected == last.Number {
				last.Label, last.Text = clineField, true
			}
			return p
		}
	}
	return nil
}

// clineField is the placeholder of the field that ends Cline's question.
const clineField = "Type a response..."

// copilotQuestion reads GitHub Copilot CLI's form for a question: "Copilot needs information.",
// the question, its field, and its keys named in the footer. A field with suggested values lists
// them under its label ("colour:"), the cursor's marked "❯ ", the last "Other (type your
// answer)", whose field opens under the form when the cursor reaches it; the footer then names
// "↑/↓ select". A field without suggestions is open at once: Enter accepts what it holds.
func copilotQuestion(lines []string) *Prompt {
	for i := len(lines) - 1; i >= 0; i-- {
		if lines[i] != "Copilot needs information." {
			continue
		}
		p := &Prompt{Kind: KindQuestion}
		var choices []string
		for _, l := range lines[i+1:] {
			if l == "" || isRuleLine(l) {
				continue
			}
			if p.Question == "" {
				p.Question = l
				continue
			}
			if strings.Contains(l, "enter accept") {
				if !strings.Contains(l, "select") || len(choices) == 0 {
					p.Options = []Option{
						{Number: 1, Label: "Accept", Key: "Enter", Text: true},
						{Number: 2, Label: "Decline", Key: "C-d"},
					}
					return p
				}
				for n, c := range choices {
					label, on := strings.CutPrefix(c, "❯ ")
					// The choice names where its field is once the cursor is on it.
					label = strings.Replace(label, "(type your answer below)", "(type your answer)", 1)
					o := Option{Number: n + 1, Label: label, Text: strings.Contains(label, "(type your answer)")}
					if on {
						p.Selected = o.Number
					}
					p.Options = append(p.Options, o)
				}
				p.Options = append(p.Options, Option{Number: len(choices) + 1, Label: "Decline", Key: "C-d"})
				return p
			}
			if strings.HasSuffix(l, ":") {
				choices = nil // a field's label: its choices follow
				continue
			}
			choices = append(choices, l)
		}
		return nil
	}
	return nil
}

// opencodeFieldOpen says whether OpenCode's question shows the field of o, its "Type your own
// answer": the field opens on the line under the choice, with that placeholder or what is typed,
// where the closed choice has nothing under it.
func opencodeFieldOpen(lines []string, o Option) bool {
	choice := strconv.Itoa(o.Number) + ". " + o.Label
	for i := len(lines) - 2; i >= 0; i-- {
		if lines[i] == choice {
			return lines[i+1] != "" && !optionRE().MatchString(lines[i+1])
		}
	}
	return false
}

// opencodeDialog reads OpenCode's panels that the common reader cannot: its permission panel
// and the review page at the end of its question form.
func opencodeDialog(lines []string) *Prompt {
	if p := opencodePermission(lines); p != nil {
		return p
	}
	if p := kiloRejectReason(lines); p != nil {
		return p
	}
	return opencodeReview(lines)
}

// kiloRejectReason reads the page Kilo Code opens when a permission is rejected: "Reject
// permission", "Tell Kilo what to do differently" and a field, "enter confirm  esc cancel". The
// rejection goes to the agent only once it is confirmed, with the field's words or none.
func kiloRejectReason(lines []string) *Prompt {
	for i := len(lines) - 1; i >= 0; i-- {
		if !strings.HasSuffix(lines[i], "Reject permission") {
			continue
		}
		for _, l := range lines[i+1:] {
			if strings.Contains(l, "enter confirm") && strings.Contains(l, "esc cancel") {
				return &Prompt{Kind: KindPermission, Question: "Reject permission: Tell Kilo what to do differently",
					Options: []Option{{Number: 1, Label: "Confirm the rejection", Key: "Enter", Text: true}, {Number: 2, Label: "Cancel", Key: "Escape"}}}
			}
		}
		return nil
	}
	return nil
}

// opencodeReview reads the last page of OpenCode's question form: "Review", a line per question
// with its answer, and "enter submit  esc dismiss". It is a dialog of its own: the answers go to
// the agent only once it is submitted.
func opencodeReview(lines []string) *Prompt {
	for i := len(lines) - 1; i >= 0; i-- {
		if !strings.Contains(lines[i], "enter submit") {
			continue
		}
		var answers []string
		for j := i - 1; j >= 0; j-- {
			if lines[j] == "Review" {
				return &Prompt{Kind: KindQuestion, Question: "Review: " + strings.Join(answers, "; "),
					Options: []Option{{Number: 1, Label: "Submit", Key: "Enter"}, {Number: 2, Label: "Dismiss", Key: "Escape"}}}
			}
			if lines[j] != "" {
				answers = append([]string{lines[j]}, answers...)
			}
		}
		return nil
	}
	return nil
}

// opencodePermission reads OpenCode's "Permission required" panel: its choices sit on one
// line, picked with the arrow keys.
func opencodePermission(lines []string) *Prompt {
	for i := len(lines) - 1; i >= 0; i-- {
		if !strings.HasSuffix(lines[i], "Permission required") {
			continue
		}
		p := &Prompt{Kind: KindPermission, Question: "Permission required"}
		for _, l := range lines[i+1:] {
			switch {
			case strings.HasPrefix(l, "# "):
				p.Question = "Permission required: " + strings.TrimPrefix(l, "# ")
				p.Tool = strings.Fields(strings.TrimPrefix(l, "# "))[0]
			case dollarRE().MatchString(l):
				p.Command = dollarRE().FindStringSubmatch(l)[1]
			case strings.HasPrefix(l, "Allow once"):
				for n, f := range columnGapRE().Split(l, -1) {
					if strings.Contains(f, "ctrl+") || strings.Contains(f, "enter") || strings.Contains(f, "⇆") {
						break
					}
					p.Options = append(p.Options, Option{Number: n + 1, Label: f})
				}
				p.Selected, p.Across = 1, true // the panel opens on its first choice
				return p
			}
		}
		return nil
	}
	return nil
}
