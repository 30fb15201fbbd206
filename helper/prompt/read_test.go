package prompt

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fixture is a real agent's screen: the '# title:' and '# want:' header lines of its capture,
// then the capture itself.
func fixture(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", path))
	if err != nil {
		t.Fatal(err)
	}
	var body []string
	for i, l := range strings.Split(string(b), "\n") {
		if i < 2 && strings.HasPrefix(l, "# ") {
			continue
		}
		body = append(body, l)
	}
	return strings.Join(body, "\n")
}

func labels(p *Prompt) []string {
	var out []string
	for _, o := range p.Options {
		out = append(out, o.Label)
	}
	return out
}

func TestReadRealDialogs(t *testing.T) {
	tests := []struct {
		agent, file               string
		kind, question, tool, cmd string
		options                   []string
		selected                  int
	}{
		{"claude", "claude/real_2.1.197_blocked_permission-bash.txt", KindPermission, "Do you want to proceed?", "Bash", "echo probe > probe.txt",
			[]string{"Yes", "Yes, and always allow access to repo/ from this project", "No"}, 1},
		// 2.1.197's capture with the tip newer versions draw under the heading.
		{"claude", "claude/tip_blocked_permission-bash.txt", KindPermission, "Do you want to proceed?", "Bash", "echo probe > probe.txt",
			[]string{"Yes", "Yes, and always allow access to repo/ from this project", "No"}, 1},
		// 2.1.332: a tip and the tool's description under the heading, the command in a box.
		{"claude", "../../detect/testdata/claude/real_2.1.332_blocked_permission-bash.txt", KindPermission, "Do you want to proceed?", "Bash", "echo probe > probe.txt",
			[]string{"Yes", "Yes, and always allow access to /root/.cache/taw-agents/run-claude-2230982326/repo from this project", "Yes, and switch to auto mode · auto mode handles these prompts for you", "No"}, 1},
		{"claude", "../../detect/testdata/claude/real_2.1.332_blocked_question.txt", KindQuestion, "Which colour should the button be?", "", "",
			[]string{"Option 1", "Option 2", "Type something.", "Chat about this"}, 1},
		{"claude", "claude/real_2.1.197_blocked_question.txt", KindQuestion, "Which colour should the button be?", "", "",
			[]string{"Option 1", "Option 2", "Type something.", "Chat about this"}, 1},
		{"claude", "claude/real_2.1.197_blocked_trust.txt", KindTrust, "", "", "",
			[]string{"Yes, I trust this folder", "No, exit"}, 1},
		{"codex", "codex/real_0.171.0_blocked_permission-command.txt", KindPermission, "Would you like to run the following command?", "shell", "echo probe > probe.txt",
			[]string{"Yes, proceed", "Yes, and don't ask again for commands that start with `echo probe > probe.txt`", "No, and tell Codex what to do differently"}, 1},
		{"claude", "claude/real_2.1.197_blocked_plan-approval.txt", KindPlanApproval, "Exit plan mode?", "", "",
			[]string{"Yes", "No"}, 1},
		{"codex", "codex/real_0.171.0_blocked_plan-approval.txt", KindPlanApproval, "Implement this plan?", "", "",
			[]string{"Yes, implement this plan", "Yes, clear context and implement", "No, stay in Plan mode"}, 1},
		{"codex", "codex/real_0.171.0_blocked_question.txt", KindQuestion, "Which colour should the button be? 1", "", "",
			[]string{"Option 1", "Option 2", "None of the above"}, 1},
		{"gemini", "gemini/real_0.61.0_blocked_permission-shell.txt", KindPermission, "Allow execution of [Shell]?", "Shell", "echo probe > probe.txt",
			[]string{"Allow once", "Allow for this session", "No, suggest changes"}, 1},
		{"gemini", "gemini/real_0.61.0_blocked_question.txt", KindQuestion, "Which colour should the button be?", "", "",
			[]string{"Option 1", "Option 2", "Enter a custom value"}, 1},
		{"copilot", "copilot/real_1.0.102_blocked_permission-shell.txt", KindPermission, "Do you want to run this command?", "shell", "echo probe > probe.txt",
			[]string{"Yes", "No, and tell Copilot what to do differently"}, 1},
		{"copilot", "copilot/real_1.0.102_blocked_question.txt", KindQuestion, "Which colour should the button be?", "", "",
			[]string{"Accept", "Decline"}, 0},
		{"opencode", "opencode/real_1.18.33_blocked_permission-shell.txt", KindPermission, "Permission required: Shell command", "Shell", "echo probe > probe.txt",
			[]string{"Allow once", "Allow always", "Reject"}, 1},
		{"cline", "../../detect/testdata/cline/real_3.0.65_blocked_permission-command.txt", KindPermission, "Approve tool call?", "run_commands", "echo probe > probe.txt",
			[]string{"Approve", "Deny"}, 0},
		{"cline", "../../detect/testdata/cline/real_3.0.65_blocked_question.txt", KindQuestion, "Which colour should the button be?", "", "",
			[]string{"probe 1", "probe 2", "Type a response..."}, 1},
		{"kilo", "../../detect/testdata/kilo/real_7.7.7_blocked_reject-reason.txt", KindPermission, "Reject permission: Tell Kilo what to do differently", "", "",
			[]string{"Confirm the rejection", "Cancel"}, 0},
		{"kilo", "../../detect/testdata/kilo/real_7.7.7_blocked_permission-shell.txt", KindPermission, "Permission required: Shell command", "Shell", "echo probe > probe.txt",
			[]string{"Allow once", "Allow always", "Reject"}, 1},
		{"qwen", "../../detect/testdata/qwen/real_0.24.4_blocked_permission-shell.txt", KindPermission, "Allow execution of: 'echo'?", "Shell", "echo probe > probe.txt",
			[]string{"Yes, allow once", "Always allow run 'echo *' commands in this project", "Always allow run 'echo *' commands for this user", "No, suggest changes"}, 1},
		// Its scrollbar, drawn in the last column for a moment after the screen scrolls.
		{"qwen", "../../detect/testdata/qwen/real_0.24.4_blocked_permission-scrollbar.txt", KindPermission, "Allow execution of: 'sleep, echo'?", "Shell", "echo start && sleep 12 && echo probe > probe.txt",
			[]string{"Yes, allow once", "Always allow run 'sleep *' commands, run 'echo *' commands in this project", "Always allow run 'sleep *' commands, run 'echo *' commands for this user", "No, suggest changes"}, 1},
		{"opencode", "../../detect/testdata/opencode/real_1.18.33_blocked_question-review.txt", KindQuestion, "Review: Colour 1: Option 1; Colour 2: Option 1", "", "",
			[]string{"Submit", "Dismiss"}, 0},
		{"opencode", "opencode/real_1.18.33_blocked_question.txt", KindQuestion, "Which colour should the button be? 1", "", "",
			[]string{"Option 1", "Option 2", "Type your own answer"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			p := Read(tt.agent, fixture(t, tt.file))
			if p == nil {
				t.Fatalf("no dialog read")
			}
			if p.Kind != tt.kind || p.Question != tt.question || p.Tool != tt.tool || p.Command != tt.cmd || p.Selected != tt.selected {
				t.Errorf("read kind=%q question=%q tool=%q command=%q selected=%d, want %q %q %q %q %d",
					p.Kind, p.Question, p.Tool, p.Command, p.Selected, tt.kind, tt.question, tt.tool, tt.cmd, tt.selected)
			}
			if got := labels(p); !reflect.DeepEqual(got, tt.options) {
				t.Errorf("options %q, want %q", got, tt.options)
			}
		})
	}
}

func TestReadNoDialog(t *testing.T) {
	for _, f := range []string{"claude/real_2.1.197_idle_prompt.txt", "claude/real_2.1.197_idle_after-turn.txt", "claude/real_2.1.197_working_spinner.txt"} {
		if p := Read("claude", fixture(t, f)); p != nil {
			t.Errorf("%s: read a dialog %+v on a screen with none", f, p)
		}
	}
	// A numbered list in the agent's output is no menu: no cursor is on it.
	if p := Read("gemini", "Tips:\n1. Create GEMINI.md files\n2. /help for more information\n\n > "); p != nil {
		t.Errorf("read a dialog %+v from a plain list", p)
	}
}
