// Package standin is a local model server for driving real coding agents through their screens
// without the network. It speaks enough of the Anthropic Messages API, the OpenAI Responses and
// Chat Completions APIs and the Gemini generateContent API, streaming or not, for an agent to run
// a turn.
//
// What it answers depends on the last thing the person typed (see Scenario): a short text, a
// tool call that needs permission, a question to the person, a plan to approve, an HTTP error,
// an error the agent retries, or a slow answer. A request that offers no tools is a side request
// (a title, a summary, a routing decision) and always gets a short answer, so only the agent's
// own turn follows the scenario.
package standin

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Scenario is what the server does with a turn, chosen by a word in the person's message.
type Scenario int

const (
	Answer Scenario = iota // a short text answer
	Tool                   // a shell command, which agents ask permission for
	Ask                    // the agent's own question-to-the-person tool
	Plan                   // the agent's plan approval tool (exit plan mode)
	Fail                   // an HTTP 400 the agent does not retry
	Retry                  // an HTTP 503 the agent retries
	Slow                   // a text answer streamed over SlowFor
	Call                   // the tool named after "CALL:" in the message, with the JSON object after it as arguments
)

// The words, in capitals, that choose a scenario. The first found wins.
var words = []struct {
	word string
	s    Scenario
}{{"CALL:", Call}, {"TOOL", Tool}, {"ASK", Ask}, {"PLAN", Plan}, {"FAIL", Fail}, {"RETRY", Retry}, {"SLOW", Slow}}

// ScenarioOf reads the scenario from the person's message; the tool name goes with Call (its
// arguments are read by callArgs). The
// newest words come last: an agent that keeps a message the model refused sends it again joined
// to the next one (Qwen Code), so the last line that names a scenario chooses.
func ScenarioOf(msg string) (Scenario, string) {
	lines := strings.Split(msg, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if s, name, ok := scenarioOfLine(lines[i]); ok {
			return s, name
		}
	}
	return Answer, ""
}

func scenarioOfLine(line string) (Scenario, string, bool) {
	for _, w := range words {
		i := strings.Index(line, w.word)
		if i < 0 {
			continue
		}
		if w.s == Call {
			name := line[i+len(w.word):]
			if j := strings.IndexFunc(name, func(r rune) bool { return r == ' ' || r == '"' }); j >= 0 {
				name = name[:j]
			}
			return Call, name, true
		}
		return w.s, "", true
	}
	return Answer, "", false
}

// The tool names agents give their shell, question and plan-approval tools, most likely first.
var (
	shellTools = []string{"Bash", "Execute", "run_shell_command", "shell_command", "shell", "exec_command",
		"bash", "execute_command", "run_commands", "run_terminal_cmd", "terminal", "run_command", "launch-process", "powershell"}
	askTools  = []string{"AskUserQuestion", "AskUser", "ask_user", "ask_user_question", "ask_question", "question", "ask_followup_question", "request_user_input", "ask"}
	planTools = []string{"ExitPlanMode", "exit_plan_mode", "plan_exit", "ExitSpecMode", "submit_plan", "plan_mode_respond"}
)

// SlowFor is how long a slow answer takes; it stays bounded so a test driving it ends.
var SlowFor = 40 * time.Second

// Server is the stand-in. Log, when set, receives one line per request (its API, the tools it
// offered and the message that chose the scenario), which is how one finds a new agent's tool
// names.
type Server struct {
	Log     io.Writer
	Dump    string // a folder that receives each request's body, numbered; "" for none
	logMu   sync.Mutex
	n       int
	replies int
	used    map[string]int  // messages answered with a tool call → the request's length then
	search  *pending        // the call whose tool an agent defers, searched for; its result is due
	calls   map[string]bool // the ids of the tool calls a CALL: message made
	results []string        // the text of every tool result received
}

// tool is a tool an agent offered: its name and its parameters' JSON schema.
type tool struct {
	name   string
	schema map[string]any
}

// turn is one request reduced to what the scenario needs.
type turn struct {
	tools      []tool
	lastUser   string // the person's last message, when nothing but tool results follow it
	toolResult bool   // the request ends with a tool's result
	resultOf   string // that result's tool call id (Anthropic)
	result     string // and its text (every API)
	stream     bool
	length     int            // how many messages the request carries
	schema     map[string]any // a structured-output schema (Gemini side requests)
}

// reply is what the server decided to send back.
type reply struct {
	id       string // unique to this reply
	status   int    // an HTTP error, or 0
	text     string // the answer's text
	toolName string
	toolArgs map[string]any
	slow     bool
	call     bool // a CALL: message's tool call, whose result the next answer repeats
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	var req map[string]any
	_ = json.Unmarshal(body, &req)
	s.dump(path, body)
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(path, "/models"):
		s.models(w, path)
	case r.Method == http.MethodGet && strings.Contains(path, "/models/"):
		name := path[strings.LastIndex(path, "/")+1:]
		writeJSON(w, 200, map[string]any{"id": name, "name": "models/" + name, "object": "model", "type": "model", "display_name": name,
			"created_at": "2025-01-01T00:00:00Z", "created": 1735689600, "owned_by": "standin"})
	case strings.HasSuffix(path, "/messages/count_tokens"):
		writeJSON(w, 200, map[string]any{"input_tokens": 100})
	case strings.HasSuffix(path, ":countTokens"):
		writeJSON(w, 200, map[string]any{"totalTokens": 100})
	case strings.HasSuffix(path, "/messages"):
		t := anthropicTurn(req)
		s.logTurn("anthropic", path, t)
		s.anthropic(w, r, t, s.decide(t))
	case strings.HasSuffix(path, "/responses"):
		t := responsesTurn(req)
		s.logTurn("responses", path, t)
		s.responses(w, r, t, s.decide(t))
	case strings.HasSuffix(path, "/chat/completions"):
		t := chatTurn(req)
		s.logTurn("chat", path, t)
		s.chat(w, r, t, s.decide(t))
	case strings.Contains(path, ":generateContent") || strings.Contains(path, ":streamGenerateContent"):
		t := geminiTurn(req)
		t.stream = strings.Contains(path, ":streamGenerateContent")
		s.logTurn("gemini", path, t)
		s.gemini(w, r, t, s.decide(t))
	case strings.HasSuffix(path, ":embedContent") || strings.HasSuffix(path, ":batchEmbedContents"):
		writeJSON(w, 200, map[string]any{"embedding": map[string]any{"values": []float64{0, 0, 0}}})
	case strings.HasSuffix(path, "/chat-stream"):
		// Augment's own chat API, which the stand-in does not speak: it answers late, so that
		// Auggie shows its working screen, then refuses.
		s.logf("augment %s", path)
		select {
		case <-r.Context().Done():
		case <-time.After(SlowFor / 2):
		}
		writeJSON(w, 404, map[string]any{"error": "not served by the stand-in: " + path})
	default:
		s.logf("other %s %s", r.Method, path)
		writeJSON(w, 404, map[string]any{"error": map[string]any{"message": "not served by the stand-in: " + path, "type": "not_found"}})
	}
}

func (s *Server) logf(format string, args ...any) {
	if s.Log == nil {
		return
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.Log, time.Now().UTC().Format("15:04:05 ")+format+"\n", args...)
}

func (s *Server) dump(path string, body []byte) {
	if s.Dump == "" || len(body) == 0 {
		return
	}
	s.logMu.Lock()
	s.n++
	n := s.n
	s.logMu.Unlock()
	name := fmt.Sprintf("%s-%04d%s.json", time.Now().UTC().Format("150405"), n, strings.NewReplacer("/", "_", ":", "_").Replace(path))
	_ = os.WriteFile(filepath.Join(s.Dump, name), body, 0o600)
}

func (s *Server) logTurn(api, path string, t turn) {
	names := make([]string, len(t.tools))
	for i, tl := range t.tools {
		names[i] = tl.name
	}
	msg := t.lastUser
	if len(msg) > 120 {
		msg = msg[len(msg)-120:]
	}
	result := t.result
	if len(result) > 200 {
		result = result[:200]
	}
	s.logf("%s %s stream=%v toolResult=%v tools=%s msg=%q result=%q", api, path, t.stream, t.toolResult, strings.Join(names, ","), msg, result)
	if t.toolResult {
		s.logMu.Lock()
		s.results = append(s.results, t.result)
		s.logMu.Unlock()
	}
}

// Heard says whether a tool result the server received holds text: how a test knows that what
// a person typed into an agent's dialog reached the model.
func (s *Server) Heard(text string) bool {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	for _, r := range s.results {
		if strings.Contains(r, text) {
			return true
		}
	}
	return false
}

// decide picks the reply for a turn and gives it ids of its own: agents keep their history by
// message and tool-call id, and drop a reply whose id they have seen.
func (s *Server) decide(t turn) reply {
	rp := s.choose(t)
	s.logMu.Lock()
	s.replies++
	rp.id = fmt.Sprintf("%d%d", time.Now().Unix(), s.replies)
	if rp.call {
		if s.calls == nil {
			s.calls = map[string]bool{}
		}
		s.calls[ToolUseID(rp.id)] = true
	}
	s.logMu.Unlock()
	return rp
}

// ToolUseID is the id a tool call of reply id carries.
func ToolUseID(id string) string { return "toolu_standin" + id }

// CallResultPrefix starts the answer that follows a CALL: message's tool call: the tool's
// result, so that what an agent got from a tool shows on its screen.
const CallResultPrefix = "Done. The tool answered: "

// callResult is the answer to a request that carries the result of a CALL: message's tool call.
func (s *Server) callResult(t turn) (reply, bool) {
	s.logMu.Lock()
	ok := t.toolResult && s.calls[t.resultOf]
	s.logMu.Unlock()
	if !ok {
		return reply{}, false
	}
	text := strings.Join(strings.Fields(t.result), " ")
	if len(text) > 4000 {
		text = text[:4000]
	}
	return reply{text: CallResultPrefix + text}, true
}

func (s *Server) choose(t turn) reply {
	if t.schema != nil {
		b, _ := json.Marshal(fill(t.schema, "", 0))
		return reply{text: string(b)}
	}
	if rp, ok := s.callResult(t); ok {
		return rp
	}
	sc, name := ScenarioOf(t.lastUser)
	names := map[Scenario][]string{Tool: shellTools, Ask: askTools, Plan: planTools, Call: {name}}[sc]
	if rp, ok := s.deferred(t, sc, names, name); ok {
		return rp
	}
	if len(t.tools) == 0 || t.lastUser == "" {
		return reply{text: "Done."}
	}
	switch sc {
	case Fail:
		return reply{status: 400, text: "the stand-in refused this request"}
	case Retry:
		return reply{status: 500, text: "the stand-in had an internal error"}
	case Slow:
		return reply{slow: true, text: "This answer takes a while to arrive."}
	case Tool, Ask, Plan, Call:
		// One tool call per message: agents send the message again with the tool's result,
		// and some merge it with the result into one.
		if s.consume(t.lastUser, t.length) {
			return reply{text: "Done."}
		}
		if tl, ok := pick(t.tools, names); ok {
			if args, ok := callArgs(t.lastUser, name); sc == Call && ok {
				return reply{toolName: tl.name, toolArgs: args, call: true}
			}
			return reply{toolName: tl.name, toolArgs: argsFor(tl, sc, commandOf(t.lastUser)), call: sc == Call}
		}
		if sc == Plan {
			// Agents without a plan tool (Codex) take a plan from a tagged block in the answer.
			return reply{text: "<proposed_plan>\n# Probe\n\n1. Write probe.txt.\n</proposed_plan>"}
		}
		return reply{text: "No such tool was offered."}
	}
	return reply{text: "Hello from the stand-in model."}
}

// searchTool is the tool an agent offers for loading the tools it defers (Claude Code 2.1.3xx
// keeps ExitPlanMode and every MCP tool behind it): a search for "select:<name>" adds that tool
// to the next request.
const searchTool = "ToolSearch"

// pending is a tool call waiting for its deferred tool to be loaded.
type pending struct {
	msg   string
	sc    Scenario
	names []string
	name  string // a CALL: message's tool
}

// deferred answers a plan or CALL: message whose tool the agent defers: first a search that
// loads it, then, in the request that carries the search's result, the tool call itself.
func (s *Server) deferred(t turn, sc Scenario, names []string, name string) (reply, bool) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	if p := s.search; p != nil && t.toolResult {
		// The agent adds words of its own next to the search's result ("Tool loaded."): the
		// message is the one the search was for.
		tl, ok := pick(t.tools, p.names)
		if !ok {
			return reply{}, false
		}
		s.search = nil
		if s.used == nil {
			s.used = map[string]int{}
		}
		s.used[p.msg] = t.length
		if args, ok := callArgs(p.msg, p.name); p.sc == Call && ok {
			return reply{toolName: tl.name, toolArgs: args, call: true}, true
		}
		return reply{toolName: tl.name, toolArgs: argsFor(tl, p.sc, ""), call: p.sc == Call}, true
	}
	if (sc != Plan && sc != Call) || t.toolResult || t.lastUser == "" {
		return reply{}, false
	}
	if _, ok := pick(t.tools, names); ok {
		return reply{}, false
	}
	search, ok := pick(t.tools, []string{searchTool})
	if !ok {
		return reply{}, false
	}
	s.search = &pending{msg: t.lastUser, sc: sc, names: names, name: name}
	args := map[string]any{"query": "select:" + names[0]}
	if _, ok := props(search.schema)["max_results"]; ok {
		args["max_results"] = 1
	}
	return reply{toolName: search.name, toolArgs: args}, true
}

// callArgs reads the JSON object that follows "CALL:name " on the message's last line naming it:
// a call's arguments as the test wrote them.
func callArgs(msg, name string) (map[string]any, bool) {
	lines := strings.Split(msg, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		at := strings.Index(lines[i], "CALL:"+name)
		if at < 0 {
			continue
		}
		rest := strings.TrimSpace(lines[i][at+len("CALL:"+name):])
		var args map[string]any
		if json.Unmarshal([]byte(rest), &args) != nil {
			return nil, false
		}
		return args, true
	}
	return nil, false
}

// consume marks msg as answered with a tool call, saying whether it already was in a shorter
// request. The same request sent twice (some agents do) gets the same call again; the request
// that carries the tool's result is longer.
func (s *Server) consume(msg string, length int) bool {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	if s.used == nil {
		s.used = map[string]int{}
	}
	if n, ok := s.used[msg]; ok && n < length {
		return true
	}
	s.used[msg] = length
	return false
}

func pick(tools []tool, names []string) (tool, bool) {
	for _, n := range names {
		for _, t := range tools {
			if t.name == n {
				return t, true
			}
		}
	}
	return tool{}, false
}

// commandOf is the shell command a TOOL message asks for: LONG in it makes one that runs for a
// while, so an allowed command is seen running. It does not start with its sleep: Qwen Code
// refuses a command that starts with a sleep of 2 s or more followed by others.
func commandOf(msg string) string {
	if strings.Contains(msg, "LONG") {
		return "echo start && sleep 12 && echo probe > probe.txt"
	}
	return "echo probe > probe.txt"
}

// argsFor fills a tool's arguments from its schema; a shell tool gets a command that writes a
// file, so every agent treats it as needing permission.
func argsFor(t tool, sc Scenario, command string) map[string]any {
	args, _ := fill(t.schema, "", 0).(map[string]any)
	if args == nil {
		args = map[string]any{}
	}
	if sc == Tool {
		// A sandboxed agent asks only when the command leaves its sandbox.
		for k, p := range props(t.schema) {
			if e, ok := p.(map[string]any)["enum"].([]any); ok && contains(e, "require_escalated") {
				args[k] = "require_escalated"
				args["justification"] = "May I write probe.txt?"
			}
		}
		for _, k := range []string{"command", "cmd", "commandLine", "CommandLine", "commands"} {
			p, ok := props(t.schema)[k]
			if !ok {
				continue
			}
			if typ, _ := p.(map[string]any)["type"].(string); typ == "array" && k == "commands" {
				args[k] = []any{command} // a list of commands (Cline)
			} else if typ == "array" {
				args[k] = []any{"bash", "-lc", command} // one argv (Codex's older shell)
			} else {
				args[k] = command
			}
		}
	}
	return args
}

func props(schema map[string]any) map[string]any {
	p, _ := schema["properties"].(map[string]any)
	return p
}

// fill makes a value that satisfies a JSON schema well enough for an agent to accept it: every
// property present, the first enum value (or "user" when offered, so a "who speaks next" check
// hands the turn back), two items in an array.
func fill(schema map[string]any, name string, i int) any {
	if schema == nil || i > 8 {
		return "x"
	}
	if e, ok := schema["enum"].([]any); ok && len(e) > 0 {
		for _, v := range e {
			if v == "user" {
				return v
			}
		}
		return e[0]
	}
	if c, ok := schema["const"]; ok {
		return c
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := schema[k].([]any); ok && len(alts) > 0 {
			if m, ok := alts[0].(map[string]any); ok {
				return fill(m, name, i)
			}
		}
	}
	typ, _ := schema["type"].(string)
	if typs, ok := schema["type"].([]any); ok && len(typs) > 0 {
		typ, _ = typs[0].(string)
	}
	switch strings.ToLower(typ) {
	case "object", "":
		out := map[string]any{}
		// Only the required properties when the schema lists them (optional ones are often
		// filled in by the agent itself, such as a question tool's answers), and a question's
		// options, which some agents leave optional but need for a choice.
		req, hasReq := schema["required"].([]any)
		for k, v := range props(schema) {
			if hasReq && !contains(req, k) && k != "options" {
				continue
			}
			m, _ := v.(map[string]any)
			out[k] = fill(m, k, i+1)
		}
		if ap, ok := schema["additionalProperties"].(map[string]any); ok && len(props(schema)) == 0 {
			// A map whose keys the model names: one entry. Copilot CLI's question is a form
			// whose fields come so, and a field is what the person answers in.
			out["colour"] = fill(ap, "colour", i+1)
		}
		if typ == "" && len(out) == 0 {
			return "x"
		}
		return out
	case "array":
		items, _ := schema["items"].(map[string]any)
		n := 2
		if m, ok := schema["minItems"].(float64); ok && m >= 1 {
			n = int(m)
		}
		if n == 1 {
			return []any{fill(items, name, i+1)}
		}
		out := make([]any, n)
		for k := range out {
			out[k] = fillItem(items, name, k+1, i)
		}
		return out
	case "boolean":
		return false
	case "integer", "number":
		return 1
	}
	return words2(name)
}

func fillItem(items map[string]any, name string, n, depth int) any {
	v := fill(items, name, depth+1)
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%s %d", s, n)
	}
	if m, ok := v.(map[string]any); ok {
		for k, x := range m {
			p, _ := props(items)[k].(map[string]any)
			if _, fixed := p["enum"]; fixed {
				continue
			}
			if s, ok := x.(string); ok {
				m[k] = fmt.Sprintf("%s %d", s, n)
			}
		}
	}
	return v
}

// words2 is a plausible string for a property by its name.
func words2(name string) string {
	switch strings.ToLower(name) {
	case "question", "prompt", "message", "text":
		return "Which colour should the button be?"
	case "header", "title":
		return "Colour"
	case "plan", "plan_md", "content":
		return "1. Write probe.txt\n2. Stop."
	case "label", "option":
		return "Option"
	case "path", "file_path", "filepath", "file", "absolute_path":
		return "probe.txt"
	case "description", "reason", "explanation", "justification":
		return "Writes a probe file"
	}
	return "probe"
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// sse writes server-sent events, flushing each one.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

func newSSE(w http.ResponseWriter) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(200)
	f, _ := w.(http.Flusher)
	return &sse{w: w, f: f}
}

func (e *sse) event(name string, v any) {
	if name != "" {
		fmt.Fprintf(e.w, "event: %s\n", name)
	}
	b, _ := json.Marshal(v)
	fmt.Fprintf(e.w, "data: %s\n\n", b)
	if e.f != nil {
		e.f.Flush()
	}
}

func (e *sse) raw(s string) {
	fmt.Fprintf(e.w, "data: %s\n\n", s)
	if e.f != nil {
		e.f.Flush()
	}
}

// chunks splits an answer into the pieces streamed: one word at a time, spread over SlowFor
// when the answer is slow.
func (rp reply) chunks(done <-chan struct{}, each func(string)) {
	parts := strings.SplitAfter(rp.text, " ")
	if !rp.slow {
		for _, p := range parts {
			each(p)
		}
		return
	}
	deadline := time.Now().Add(SlowFor)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	each("Thinking")
	for time.Now().Before(deadline) {
		select {
		case <-done:
			return
		case <-tick.C:
			each(".")
		}
	}
	each(" ")
	for _, p := range parts {
		each(p)
	}
}

func (s *Server) models(w http.ResponseWriter, path string) {
	ids := []string{"standin-model", "claude-sonnet-4-5", "gpt-5", "gemini-2.5-pro"}
	var data, gm []any
	for _, id := range ids {
		data = append(data, map[string]any{"id": id, "object": "model", "type": "model", "display_name": id,
			"created_at": "2025-01-01T00:00:00Z", "created": 1735689600, "owned_by": "standin"})
		gm = append(gm, map[string]any{"name": "models/" + id, "displayName": id, "supportedGenerationMethods": []string{"generateContent"}})
	}
	writeJSON(w, 200, map[string]any{"object": "list", "data": data, "models": gm, "has_more": false, "first_id": ids[0], "last_id": ids[len(ids)-1]})
}

func str(v any) string { s, _ := v.(string); return s }

func list(v any) []any { l, _ := v.([]any); return l }

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }

// toolsOf are the tools a request offers, one an entry of its "tools", whose name and schema def
// reads (an entry with no name is none).
func toolsOf(req map[string]any, def func(entry map[string]any) (name string, schema map[string]any)) []tool {
	var tools []tool
	for _, v := range list(req["tools"]) {
		if n, schema := def(obj(v)); n != "" {
			tools = append(tools, tool{name: n, schema: schema})
		}
	}
	return tools
}

// lastOf is the last of the request's messages that is not a system message, nil when it has
// none; the turn's length is how many it has.
func (t *turn) lastOf(msgs []any) map[string]any {
	t.length = len(msgs)
	if len(msgs) == 0 {
		return nil
	}
	i := len(msgs) - 1
	for i > 0 && str(obj(msgs[i])["role"]) == "system" {
		i--
	}
	return obj(msgs[i])
}

func contains(l []any, s string) bool {
	for _, v := range l {
		if v == s {
			return true
		}
	}
	return false
}
