package panestate

import (
	"reflect"
	"testing"

	"github.com/taw-tmux/taw/helper/prompt"
	"github.com/taw-tmux/taw/helper/tmux"
)

func TestDialogOptionsNameWhatTheDialogAsks(t *testing.T) {
	q := &prompt.Prompt{Kind: prompt.KindPermission, Question: "Allow execution of [Shell]?", Tool: "Shell", Command: "npm test",
		Options: []prompt.Option{{Number: 1, Label: "Allow once"}}, Source: prompt.FromScreen}
	// A hook's generic words give way to the command on screen.
	got := DialogOptions("Tool Confirm Shell Command requires execution", q)
	want := map[string]string{OptPrompt: q.Encode(), OptMessage: "Allow Shell(npm test)?"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("hook's words: %v, want %v", got, want)
	}
	// Words that name the command stay; an agent with no message (read off the screen) gets none.
	for _, m := range []string{"Allow Bash(npm test)?", ""} {
		if got := DialogOptions(m, q); !reflect.DeepEqual(got, map[string]string{OptPrompt: q.Encode()}) {
			t.Errorf("message %q: %v, want the dialog only", m, got)
		}
	}
	cmds := DialogCmds("%3", "Tool Confirm Shell Command requires execution", q)
	wantCmds := []tmux.Cmd{{"set-option", "-p", "-t", "%3", OptPrompt, q.Encode()}, {"set-option", "-p", "-t", "%3", OptMessage, "Allow Shell(npm test)?"}}
	if !reflect.DeepEqual(cmds, wantCmds) {
		t.Errorf("DialogCmds = %q, want %q", cmds, wantCmds)
	}
}
