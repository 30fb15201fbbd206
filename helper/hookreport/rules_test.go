package hookreport

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/agents"
)

func TestParse(t *testing.T) {
	p := Parse([]byte(`{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"rm -rf build","n":3,"ok":true},` +
		`"questions":[{"question":"Which?"}],"session_id":"dup","deep":{"a":{"b":{"c":{"d":"too deep"}}}}}`))
	want := map[string]string{"session_id": "s1", "tool_name": "Bash", "tool_input.command": "rm -rf build",
		"tool_input.n": "3", "tool_input.ok": "true", "questions.0.question": "Which?"}
	for k, v := range want {
		if p[k] != v {
			t.Errorf("%s = %q, want %q", k, p[k], v)
		}
	}
	if _, ok := p["deep.a.b.c.d"]; ok {
		t.Errorf("a value deeper than %d levels was kept", maxDepth)
	}
	// A head cut off in the middle keeps what came before the cut.
	cut := Parse([]byte(`{"session_id":"s2","hook_event_name":"Stop","tool_response":{"stdout":"aaaa`))
	if cut["session_id"] != "s2" || cut["hook_event_name"] != "Stop" {
		t.Errorf("cut payload lost its head: %v", cut)
	}
	if len(Parse([]byte("not json"))) != 0 || len(Parse(nil)) != 0 {
		t.Errorf("garbage gave values")
	}
}

func TestDecide(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	tests := []struct {
		agent, event, payload string
		env                   func(string) string
		want                  Action
	}{
		{"claude", "SessionStart", `{"session_id":"s","permission_mode":"plan","source":"startup","model":"opus"}`, nil,
			Action{State: Idle, SessionID: "s", SessionStart: "startup", Resume: []string{"claude", "--resume", "s", "--model", "opus", "--permission-mode", "plan"}}},
		{"claude", "UserPromptSubmit", `{"session_id":"s","permission_mode":"default"}`, nil,
			Action{State: Working, SessionID: "s", Resume: []string{"claude", "--resume", "s"}, KeepFlags: []string{"--model"}}},
		{"claude", "PermissionRequest", `{"session_id":"s","tool_name":"Bash","tool_input":{"command":"rm -rf\nbuild"}}`, nil,
			Action{State: Blocked, Message: "Allow Bash(rm -rf build)?", SessionID: "s"}},
		{"claude", "PermissionRequest", `{"session_id":"s","tool_name":"Edit","tool_input":{"file_path":"/w/a.go","old_string":"x"}}`, nil,
			Action{State: Blocked, Message: "Allow Edit(/w/a.go)?", SessionID: "s"}},
		{"claude", "PreToolUse", `{"session_id":"s","tool_name":"AskUserQuestion","tool_input":{"questions":[{"question":"Which library?"}]}}`, nil,
			Action{State: Blocked, Message: "Which library?", SessionID: "s"}},
		{"claude", "PreToolUse", `{"session_id":"s","tool_name":"Read","tool_input":{"file_path":"/a"}}`, nil,
			Action{State: Working, SessionID: "s"}},
		{"claude", "Notification", `{"session_id":"s","notification_type":"permission_prompt","message":"Claude needs your permission to use Bash"}`, nil,
			Action{State: Blocked, Message: "Claude needs your permission to use Bash", MessageHint: true, SessionID: "s"}},
		{"claude", "PermissionRequest", `{"session_id":"s","tool_name":"AskUserQuestion","tool_input":{"questions":[{"question":"Which library?"}]}}`, nil,
			Action{State: Blocked, Message: "Which library?", SessionID: "s"}},
		{"claude", "Notification", `{"session_id":"s","notification_type":"idle_prompt","message":"Claude is waiting for your input"}`, nil,
			Action{State: Idle, SessionID: "s"}},
		// Words in a message mean nothing: only notification_type does.
		{"claude", "Notification", `{"session_id":"s","notification_type":"auth_success","message":"needs your permission"}`, nil,
			Action{Skip: true}},
		{"claude", "StopFailure", `{"session_id":"s","error":"rate_limit"}`, nil, Action{State: Idle, SessionID: "s"}},
		{"claude", "PermissionDenied", `{"session_id":"s","tool_name":"Bash"}`, nil, Action{State: Working, SessionID: "s"}},
		{"claude", "PostCompact", `{"session_id":"s","trigger":"manual"}`, nil, Action{State: Idle, SessionID: "s"}},
		{"claude", "PostCompact", `{"session_id":"s","trigger":"auto"}`, nil, Action{State: Working, SessionID: "s"}},
		{"claude", "SessionEnd", `{"session_id":"s","reason":"clear"}`, nil, Action{Skip: true}},
		{"claude", "SessionEnd", `{"session_id":"s","reason":"prompt_input_exit"}`, nil, Action{Release: true}},
		{"claude", "NoSuchEvent", `{}`, nil, Action{Skip: true}},
		{"codex", "Interrupt", `{"session_id":"c"}`, nil, Action{State: Idle, SessionID: "c", Resume: []string{"codex", "resume", "c"}}},
		{"codex", "SessionEnd", `{"session_id":"c"}`, nil, Action{Release: true}},
		{"codex", "Stop", `{"session_id":"nested"}`, env("CODEX_THREAD_ID", "c"), Action{Skip: true}},
		{"copilot", "permissionRequest", `{"sessionId":"k","toolName":"bash","toolArgs":"{\"command\":\"npm publish\"}"}`, nil,
			Action{State: Blocked, Message: "Allow bash(npm publish)?", SessionID: "k", Resume: []string{"copilot", "--resume=k"}}},
		{"copilot", "preToolUse", `{"sessionId":"k","toolName":"ask_user","toolArgs":"{\"question\":\"Which branch?\"}"}`, nil,
			Action{State: Blocked, Message: "Which branch?", SessionID: "k", Resume: []string{"copilot", "--resume=k"}}},
		// It fires after each failed attempt of a request Copilot CLI retries: an install made
		// before taw stopped registering it reports nothing by it.
		{"copilot", "errorOccurred", `{"sessionId":"k","errorContext":"model_call","recoverable":true,"error":{"message":"boom"}}`, nil,
			Action{Skip: true}},
		{"droid", "PreToolUse", `{"session_id":"d","tool_name":"AskUser","tool_input":{"questions":[{"question":"Which database?"}]}}`, nil,
			Action{State: Blocked, Message: "Which database?", SessionID: "d", Resume: []string{"droid", "--resume", "d"}}},
		{"droid", "Notification", `{"session_id":"d","notification_type":"elicitation_dialog","message":"Factory CLI is asking the user 1 question(s)"}`, nil,
			Action{State: Blocked, Message: "Factory CLI is asking the user 1 question(s)", MessageHint: true, SessionID: "d", Resume: []string{"droid", "--resume", "d"}}},
		{"gemini", "Notification", `{"session_id":"g","notification_type":"ToolPermission","message":"Tool run_shell_command requires confirmation"}`, nil,
			Action{State: Blocked, Message: "Tool run_shell_command requires confirmation", MessageHint: true, SessionID: "g", Resume: []string{"gemini", "--resume", "g"}}},
		{"gemini", "AfterAgent", `{"session_id":"g"}`, nil, Action{State: Idle, SessionID: "g", Resume: []string{"gemini", "--resume", "g"}}},
		{"grok", "Stop", `{"session_id":"payload"}`, env("GROK_SESSION_ID", "envsid"), Action{State: Idle, SessionID: "envsid", Resume: []string{"grok", "--resume", "envsid"}}},
		{"cursor", "stop", `{"conversation_id":"cv"}`, nil, Action{State: Idle, SessionID: "cv", Resume: []string{"cursor-agent", "--resume", "cv"}}},
		{"nobody", "Stop", `{}`, nil, Action{Skip: true}},
	}
	for _, tt := range tests {
		got := Decide(Event{Agent: tt.agent, Name: tt.event, Payload: Parse([]byte(tt.payload)), Getenv: tt.env})
		if tt.agent == "claude" && tt.want.Resume == nil && got.Resume != nil {
			got.Resume, got.KeepFlags = nil, nil // the resume command is checked in the rows that name one
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %s %s:\n got %+v\nwant %+v", tt.agent, tt.event, tt.payload, got, tt.want)
		}
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("é", 200)
	c := clip(long)
	if len(c) > maxMessage || !strings.HasSuffix(c, "…") {
		t.Errorf("clip(%d bytes) = %d bytes %q", len(long), len(c), c)
	}
	if got := clip("a\x1b[31mred\x00\tb"); got != "a [31mred b" {
		t.Errorf("control characters kept: %q", got)
	}
}

// A hook's resume command is the catalogue's: every agent whose hooks report a session has one
// there, and the hook reports it as written there.
func TestResumeIsTheCatalogues(t *testing.T) {
	for _, a := range agents.Known {
		if a.Hooks == nil {
			continue
		}
		if a.Resume == nil {
			t.Errorf("%s: its hooks report a session, but its catalogue entry (helper/agents) has no Resume", a.ID)
			continue
		}
		got := Decide(Event{Agent: a.ID, Name: "Stop", Payload: Payload{a.Hooks.SessionKeys[0]: "S-1", "model": "m"}})
		want := a.Resume.Argv("S-1", "")
		if len(got.Resume) < len(want) || !reflect.DeepEqual(got.Resume[:len(want)], want) {
			t.Errorf("%s: hook reports resume %q, want it to start with the catalogue's %q", a.ID, got.Resume, want)
		}
	}
}

// Every event an agent's installer registers has a rule: an event without one would be
// installed, run at every turn and dropped without a word.
func TestEveryRegisteredEventHasARule(t *testing.T) {
	for _, a := range agents.Known {
		h := a.Hooks
		if h == nil {
			continue
		}
		if len(h.Events) == 0 {
			t.Errorf("%s: its catalogue entry has Hooks but registers no Events", a.ID)
		}
		if len(h.SessionKeys) == 0 {
			t.Errorf("%s: its catalogue entry names no SessionKeys: where does its payload keep the session?", a.ID)
		}
		for _, ev := range h.Events {
			name := ev
			if n, ok := h.Rename[ev]; ok {
				name = n
			}
			if !Handles(name) {
				t.Errorf("%s: the installer registers %s, which maps to %s, and no rule reports it: add a Rename to a shared event or a rule in hookreport", a.ID, ev, name)
			}
		}
		for from := range h.Rename {
			if !slices.Contains(h.Events, from) {
				t.Errorf("%s: Rename maps %s, which the installer does not register", a.ID, from)
			}
		}
	}
}

func TestHookDaemon(t *testing.T) {
	for _, c := range []struct {
		agent string
		argv  []string
		want  bool
	}{
		{"codex", []string{"/usr/lib/node_modules/@openai/codex/bin/codex", "app-server", "--managed-daemon"}, true},
		{"codex", []string{"codex", "app-server"}, false}, // an app-server someone runs for one client
		{"codex", []string{"codex", "resume", "s"}, false},
		{"claude", []string{"codex", "app-server", "--managed-daemon"}, false},
	} {
		if got := HookDaemon(c.agent, c.argv); got != c.want {
			t.Errorf("HookDaemon(%s, %q) = %v, want %v", c.agent, c.argv, got, c.want)
		}
	}
}
