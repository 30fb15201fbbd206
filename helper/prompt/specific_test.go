package prompt

import "testing"

func TestSpecificNamesWhatTheDialogAsks(t *testing.T) {
	shell := &Prompt{Kind: KindPermission, Question: "Allow execution of [Shell]?", Tool: "Shell", Command: "sleep 12 && echo probe > probe.txt"}
	question := &Prompt{Kind: KindQuestion, Question: "Which colour should the button be?"}
	trust := &Prompt{Kind: KindTrust, Question: "Do you trust this folder?"}
	for _, c := range []struct {
		message string
		p       *Prompt
		want    string
	}{
		// A hook's generic words give way to the command on screen.
		{"Tool Confirm Shell Command requires execution", shell, "Allow Shell(sleep 12 && echo probe > probe.txt)?"},
		// A message that names it already stays as the agent wrote it.
		{"Allow Bash(sleep 12 && echo probe > probe.txt)?", shell, "Allow Bash(sleep 12 && echo probe > probe.txt)?"},
		{"Copilot needs your permission", &Prompt{Kind: KindPermission, Command: "rm -rf build"}, "Allow rm -rf build?"},
		{"Gemini has a question", question, "Which colour should the button be?"},
		{"Asks: Which colour should the button be?", question, "Asks: Which colour should the button be?"},
		// Nothing more specific on screen: the message stays.
		{"Claude needs your permission", trust, "Claude needs your permission"},
		{"waiting", nil, "waiting"},
	} {
		if got := Specific(c.message, c.p); got != c.want {
			t.Errorf("Specific(%q, %+v) = %q, want %q", c.message, c.p, got, c.want)
		}
	}
}

func TestAsking(t *testing.T) {
	for _, c := range []struct{ tool, what, want string }{
		{"Bash", "npm  test\n", "Allow Bash(npm test)?"},
		{"Read", "", "Allow Read?"},
		{"", "npm test", "Allow npm test?"},
		{"", "", ""},
	} {
		if got := Asking(c.tool, c.what); got != c.want {
			t.Errorf("Asking(%q, %q) = %q, want %q", c.tool, c.what, got, c.want)
		}
	}
}
