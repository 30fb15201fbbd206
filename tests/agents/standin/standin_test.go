package standin

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func post(t *testing.T, srv *httptest.Server, path, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp.StatusCode, b.String()
}

func TestScenarioOf(t *testing.T) {
	for _, c := range []struct {
		msg  string
		want Scenario
		name string
	}{
		{"say hello", Answer, ""},
		{"run a TOOL", Tool, ""},
		{"ASK me", Ask, ""},
		{"PLAN it", Plan, ""},
		{"FAIL now", Fail, ""},
		{"RETRY now", Retry, ""},
		{"answer SLOW", Slow, ""},
		{"use CALL:read_file please", Call, "read_file"},
		{"<current_datetime>x</current_datetime>\nrun a TOOL", Tool, ""},
		{"FAIL now\nanswer SLOW", Slow, ""},
		{"CALL:read_file\nsay hello", Call, "read_file"},
	} {
		got, name := ScenarioOf(c.msg)
		if got != c.want || name != c.name {
			t.Errorf("ScenarioOf(%q) = %v %q, want %v %q", c.msg, got, name, c.want, c.name)
		}
	}
}

const bash = `{"name":"Bash","input_schema":{"type":"object","properties":{"command":{"type":"string"},"description":{"type":"string"}},"required":["command"]}}`

func TestAnthropicToolCallOncePerMessage(t *testing.T) {
	srv := httptest.NewServer(&Server{})
	defer srv.Close()
	req := `{"stream":true,"tools":[` + bash + `],"messages":[{"role":"user","content":"run a TOOL"},{"role":"system","content":"x"}]}`
	code, body := post(t, srv, "/v1/messages", req)
	if code != 200 || !strings.Contains(body, `"type":"tool_use"`) || !strings.Contains(body, `"name":"Bash"`) ||
		!strings.Contains(body, `probe.txt`) || !strings.Contains(body, "event: message_stop") {
		t.Fatalf("want a streamed Bash tool call, got %d:\n%s", code, body)
	}
	// The same message sent back with the tool's result, merged into one user message.
	again := `{"stream":true,"tools":[` + bash + `],"messages":[{"role":"user","content":"run a TOOL"},
	 {"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]},
	 {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"},{"type":"text","text":"run a TOOL"}]}]}`
	_, body = post(t, srv, "/v1/messages", again)
	if strings.Contains(body, "tool_use") || !strings.Contains(body, "Done.") {
		t.Fatalf("the message was answered with a tool call twice:\n%s", body)
	}
}

func TestResponsesEscalatesShell(t *testing.T) {
	srv := httptest.NewServer(&Server{})
	defer srv.Close()
	req := `{"stream":true,"tools":[{"type":"function","name":"exec_command","parameters":{"type":"object",
	 "properties":{"cmd":{"type":"string"},"sandbox_permissions":{"type":"string","enum":["use_default","require_escalated"]}},"required":["cmd"]}}],
	 "input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"run a TOOL"}]}]}`
	code, body := post(t, srv, "/v1/responses", req)
	if code != 200 || !strings.Contains(body, `"type":"function_call"`) || !strings.Contains(body, `require_escalated`) ||
		!strings.Contains(body, "response.completed") {
		t.Fatalf("want an escalated exec_command call, got %d:\n%s", code, body)
	}
}

func TestChatQuestionTool(t *testing.T) {
	srv := httptest.NewServer(&Server{})
	defer srv.Close()
	req := `{"stream":true,"tools":[{"type":"function","function":{"name":"ask_user","parameters":{"type":"object",
	 "properties":{"question":{"type":"string"}},"required":["question"]}}}],"messages":[{"role":"user","content":"ASK me"}]}`
	_, body := post(t, srv, "/v1/chat/completions", req)
	if !strings.Contains(body, `"tool_calls"`) || !strings.Contains(body, `ask_user`) || !strings.Contains(body, "[DONE]") {
		t.Fatalf("want an ask_user call, got:\n%s", body)
	}
}

func TestGeminiErrorsAndText(t *testing.T) {
	srv := httptest.NewServer(&Server{})
	defer srv.Close()
	tools := `"tools":[{"functionDeclarations":[{"name":"run_shell_command","parametersJsonSchema":{"type":"object","properties":{"command":{"type":"string"}}}}]}]`
	code, body := post(t, srv, "/v1beta/models/m:streamGenerateContent?alt=sse", `{`+tools+`,"contents":[{"role":"user","parts":[{"text":"FAIL now"}]}]}`)
	if code != 400 || !strings.Contains(body, "INVALID_ARGUMENT") {
		t.Fatalf("want a 400, got %d:\n%s", code, body)
	}
	code, _ = post(t, srv, "/v1beta/models/m:streamGenerateContent?alt=sse", `{`+tools+`,"contents":[{"role":"user","parts":[{"text":"RETRY now"}]}]}`)
	if code != 500 {
		t.Fatalf("want a 500 for RETRY, got %d", code)
	}
	_, body = post(t, srv, "/v1beta/models/m:streamGenerateContent?alt=sse", `{`+tools+`,"contents":[{"role":"user","parts":[{"text":"run a TOOL"}]}]}`)
	if !strings.Contains(body, `"functionCall"`) || !strings.Contains(body, "run_shell_command") {
		t.Fatalf("want a functionCall, got:\n%s", body)
	}
	// A side request (no tools) gets a short answer whatever it says.
	code, body = post(t, srv, "/v1beta/models/m:generateContent", `{"contents":[{"role":"user","parts":[{"text":"FAIL now"}]}]}`)
	if code != 200 || !strings.Contains(body, "Done.") {
		t.Fatalf("a side request was not answered plainly: %d\n%s", code, body)
	}
}

// A CALL: message's JSON is the call's arguments, and the answer after the call's result repeats
// the result, so a test reads on the agent's screen what the tool gave it.
func TestAnthropicCallWithArgumentsThenItsResult(t *testing.T) {
	srv := httptest.NewServer(&Server{})
	defer srv.Close()
	start := `{"name":"mcp__taw__agent_start","input_schema":{"type":"object","properties":{"agent":{"type":"string"},"cwd":{"type":"string"}},"required":["agent"]}}`
	msg := `CALL:mcp__taw__agent_start {\"agent\":\"claude\",\"cwd\":\"/srv/repo\"}`
	code, body := post(t, srv, "/v1/messages", `{"tools":[`+start+`],"messages":[{"role":"user","content":"`+msg+`"}]}`)
	if code != 200 || !strings.Contains(body, `"input":{"agent":"claude","cwd":"/srv/repo"}`) {
		t.Fatalf("the call: %d %s", code, body)
	}
	id := body[strings.Index(body, `"id":"toolu_standin`)+6:]
	id = id[:strings.Index(id, `"`)]
	result := `{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id + `","content":[{"type":"text","text":"{\"pane_id\":\"%7\"}"}]}]}`
	call := `{"role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"mcp__taw__agent_start","input":{}}]}`
	code, body = post(t, srv, "/v1/messages", `{"tools":[`+start+`],"messages":[{"role":"user","content":"`+msg+`"},`+call+`,`+result+`]}`)
	if code != 200 || !strings.Contains(body, `Done. The tool answered: {\"pane_id\":\"%7\"}`) {
		t.Fatalf("the answer after the result: %d %s", code, body)
	}
	// Another tool's result is not repeated.
	other := strings.Replace(result, id, "toolu_other", 1)
	_, body = post(t, srv, "/v1/messages", `{"tools":[`+start+`],"messages":[{"role":"user","content":"`+msg+`"},`+call+`,`+other+`]}`)
	if strings.Contains(body, "The tool answered") {
		t.Fatalf("a result of a call it did not make was repeated: %s", body)
	}
}

// Claude Code 2.1.3xx defers ExitPlanMode and MCP tools behind ToolSearch: a plan or CALL:
// message gets a search for the tool first, then the call once the search's result is back,
// though the agent adds words of its own ("Tool loaded.") next to that result.
func TestAnthropicDeferredToolSearched(t *testing.T) {
	srv := httptest.NewServer(&Server{})
	defer srv.Close()
	search := `{"name":"ToolSearch","input_schema":{"type":"object","properties":{"query":{"type":"string"},"max_results":{"type":"number"}},"required":["query"]}}`
	plan := `{"name":"ExitPlanMode","input_schema":{"type":"object","properties":{}}}`
	mcp := `{"name":"mcp__taw__agent_start","input_schema":{"type":"object","properties":{"agent":{"type":"string"}}}}`
	for _, c := range []struct{ msg, tool, loaded, want string }{
		{"PLAN it", search, plan, `"name":"ExitPlanMode"`},
		{`CALL:mcp__taw__agent_start {"agent":"claude"}`, search, mcp, `"input":{"agent":"claude"},"name":"mcp__taw__agent_start"`},
	} {
		msg, _ := json.Marshal(c.msg)
		first := `{"tools":[` + bash + `,` + c.tool + `],"messages":[{"role":"user","content":` + string(msg) + `}]}`
		_, body := post(t, srv, "/v1/messages", first)
		if !strings.Contains(body, `"name":"ToolSearch"`) || !strings.Contains(body, `select:`) {
			t.Errorf("%s: the first answer is no search for the deferred tool: %s", c.msg, body)
		}
		second := `{"tools":[` + bash + `,` + c.tool + `,` + c.loaded + `],"messages":[{"role":"user","content":` + string(msg) + `},` +
			`{"role":"assistant","content":[{"type":"tool_use","id":"s1","name":"ToolSearch","input":{}}]},` +
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"s1","content":[{"type":"tool_reference"}]},{"type":"text","text":"Tool loaded."}]}]}`
		_, body = post(t, srv, "/v1/messages", second)
		if !strings.Contains(body, c.want) {
			t.Errorf("%s: after the search, want a call with %s, got %s", c.msg, c.want, body)
		}
	}
}

// Copilot CLI's ask_user asks through a form whose fields the model names: the question gets
// one field, with suggested values (Copilot adds a freeform choice to them), so a person has
// something to answer in.
func TestCopilotQuestionHasAField(t *testing.T) {
	srv := httptest.NewServer(&Server{})
	defer srv.Close()
	field := `{"anyOf":[{"type":"object","properties":{"type":{"type":"string","const":"string"},"title":{"type":"string"},
	 "enum":{"type":"array","items":{"type":"string"}}},"required":["type","enum"]},{"type":"object","properties":{"type":{"type":"string","const":"string"}},"required":["type"]}]}`
	req := `{"stream":false,"tools":[{"type":"function","function":{"name":"ask_user","parameters":{"type":"object",
	 "properties":{"message":{"type":"string"},"requestedSchema":{"type":"object","properties":{"properties":{"type":"object","additionalProperties":` + field + `}},
	 "required":["properties"]}},"required":["message","requestedSchema"]}}}],"messages":[{"role":"user","content":"ASK me"}]}`
	_, body := post(t, srv, "/v1/chat/completions", req)
	want := `{\"message\":\"Which colour should the button be?\",\"requestedSchema\":{\"properties\":{\"colour\":{\"enum\":[\"probe 1\",\"probe 2\"],\"type\":\"string\"}}}}`
	if !strings.Contains(body, want) {
		t.Fatalf("want ask_user arguments %s, got:\n%s", want, body)
	}
}

// What a person typed into a dialog reaches the model as a tool's result, in each API's way.
func TestHeardToolResults(t *testing.T) {
	s := &Server{}
	srv := httptest.NewServer(s)
	defer srv.Close()
	tool := `{"type":"function","function":{"name":"ask_user","parameters":{"type":"object"}}}`
	post(t, srv, "/v1/chat/completions", `{"tools":[`+tool+`],"messages":[{"role":"user","content":"ASK me"},{"role":"tool","tool_call_id":"c1","content":"User responded: dark blue"}]}`)
	post(t, srv, "/v1/responses", `{"tools":[{"type":"function","name":"ask"}],"input":[{"type":"function_call_output","call_id":"c2","output":[{"type":"input_text","text":"light green"}]}]}`)
	post(t, srv, "/v1beta/models/m:generateContent", `{"contents":[{"role":"user","parts":[{"functionResponse":{"name":"ask","response":{"output":"pale red"}}}]}]}`)
	for _, text := range []string{"dark blue", "light green", "pale red"} {
		if !s.Heard(text) {
			t.Errorf("the stand-in did not hear %q in a tool result", text)
		}
	}
	if s.Heard("ASK me") {
		t.Error("a person's message was heard as a tool result")
	}
}
