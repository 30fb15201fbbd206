package standin

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// OpenAI Responses (POST …/responses) and Chat Completions (POST …/chat/completions).

// userText is what the person typed in one message's content: a string, or parts whose text
// does not start with "<" (agents send their own context as tagged text in user messages).
func userText(content any) string {
	if s, ok := content.(string); ok {
		return s
	}
	var texts []string
	for _, p := range list(content) {
		pm := obj(p)
		s := str(pm["text"])
		if s != "" && !strings.HasPrefix(strings.TrimSpace(s), "<") {
			texts = append(texts, s)
		}
	}
	return strings.Join(texts, "\n")
}

func responsesTurn(req map[string]any) turn {
	t := turn{stream: req["stream"] == true, tools: toolsOf(req, func(m map[string]any) (string, map[string]any) {
		return str(m["name"]), obj(m["parameters"])
	})}
	if s, ok := req["input"].(string); ok {
		t.lastUser = s
		return t
	}
	in := list(req["input"])
	t.length = len(in)
	if len(in) == 0 {
		return t
	}
	last := obj(in[len(in)-1])
	switch typ := str(last["type"]); {
	case strings.HasSuffix(typ, "_output"):
		t.toolResult = true
		t.result = resultText(last["output"])
	case str(last["role"]) == "user":
		t.lastUser = userText(last["content"])
	}
	return t
}

func openaiError(w http.ResponseWriter, rp reply) {
	kind := map[int]string{400: "invalid_request_error", 500: "server_error"}[rp.status]
	writeJSON(w, rp.status, map[string]any{"error": map[string]any{"message": rp.text, "type": kind, "code": kind, "param": nil}})
}

func (s *Server) responses(w http.ResponseWriter, r *http.Request, t turn, rp reply) {
	if rp.status != 0 {
		openaiError(w, rp)
		return
	}
	usage := map[string]any{"input_tokens": 100, "output_tokens": 10, "total_tokens": 110,
		"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}
	var item map[string]any
	if rp.toolName != "" {
		args, _ := json.Marshal(rp.toolArgs)
		item = map[string]any{"type": "function_call", "id": "fc_standin" + rp.id, "call_id": "call_standin" + rp.id, "name": rp.toolName,
			"arguments": string(args), "status": "completed"}
	}
	message := func(text string) map[string]any {
		return map[string]any{"type": "message", "id": "msg_standin" + rp.id, "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
	}
	response := func(status string, output []any) map[string]any {
		return map[string]any{"id": "resp_standin" + rp.id, "object": "response", "created_at": time.Now().Unix(), "status": status,
			"model": "standin-model", "output": output, "usage": usage}
	}
	if !t.stream {
		if item == nil {
			item = message(rp.text)
		}
		writeJSON(w, 200, response("completed", []any{item}))
		return
	}
	e := newSSE(w)
	seq := 0
	ev := func(typ string, v map[string]any) {
		v["type"], v["sequence_number"] = typ, seq
		seq++
		e.event(typ, v)
	}
	ev("response.created", map[string]any{"response": response("in_progress", []any{})})
	ev("response.in_progress", map[string]any{"response": response("in_progress", []any{})})
	if item == nil {
		partial := message("")
		partial["status"] = "in_progress"
		partial["content"] = []any{}
		ev("response.output_item.added", map[string]any{"output_index": 0, "item": partial})
		ev("response.content_part.added", map[string]any{"output_index": 0, "item_id": "msg_standin" + rp.id, "content_index": 0,
			"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}})
		var sb strings.Builder
		rp.chunks(r.Context().Done(), func(p string) {
			sb.WriteString(p)
			ev("response.output_text.delta", map[string]any{"output_index": 0, "item_id": "msg_standin" + rp.id, "content_index": 0, "delta": p})
		})
		ev("response.output_text.done", map[string]any{"output_index": 0, "item_id": "msg_standin" + rp.id, "content_index": 0, "text": sb.String()})
		item = message(sb.String())
	} else {
		ev("response.output_item.added", map[string]any{"output_index": 0, "item": item})
		ev("response.function_call_arguments.done", map[string]any{"output_index": 0, "item_id": item["id"], "arguments": item["arguments"]})
	}
	ev("response.output_item.done", map[string]any{"output_index": 0, "item": item})
	ev("response.completed", map[string]any{"response": response("completed", []any{item})})
}

func chatTurn(req map[string]any) turn {
	t := turn{stream: req["stream"] == true, tools: toolsOf(req, func(m map[string]any) (string, map[string]any) {
		f := obj(m["function"])
		return str(f["name"]), obj(f["parameters"])
	})}
	last := t.lastOf(list(req["messages"]))
	switch str(last["role"]) {
	case "tool", "function":
		t.toolResult = true
		t.result = resultText(last["content"])
	case "user":
		t.lastUser = userText(last["content"])
	}
	return t
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request, t turn, rp reply) {
	if rp.status != 0 {
		openaiError(w, rp)
		return
	}
	usage := map[string]any{"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}
	var calls []any
	finish := "stop"
	if rp.toolName != "" {
		args, _ := json.Marshal(rp.toolArgs)
		calls = []any{map[string]any{"index": 0, "id": "call_standin" + rp.id, "type": "function",
			"function": map[string]any{"name": rp.toolName, "arguments": string(args)}}}
		finish = "tool_calls"
	}
	base := func() map[string]any {
		return map[string]any{"id": "chatcmpl-standin" + rp.id, "created": time.Now().Unix(), "model": "standin-model"}
	}
	if !t.stream {
		msg := map[string]any{"role": "assistant", "content": rp.text}
		if calls != nil {
			msg["content"], msg["tool_calls"] = nil, calls
		}
		v := base()
		v["object"], v["usage"] = "chat.completion", usage
		v["choices"] = []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}
		writeJSON(w, 200, v)
		return
	}
	e := newSSE(w)
	chunk := func(delta map[string]any, finish any) {
		v := base()
		v["object"] = "chat.completion.chunk"
		v["choices"] = []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}
		e.event("", v)
	}
	chunk(map[string]any{"role": "assistant", "content": ""}, nil)
	if calls != nil {
		chunk(map[string]any{"tool_calls": calls}, nil)
	} else {
		rp.chunks(r.Context().Done(), func(p string) { chunk(map[string]any{"content": p}, nil) })
	}
	chunk(map[string]any{}, finish)
	v := base()
	v["object"], v["choices"], v["usage"] = "chat.completion.chunk", []any{}, usage
	e.event("", v)
	e.raw("[DONE]")
}
