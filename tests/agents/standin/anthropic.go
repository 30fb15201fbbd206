package standin

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Anthropic Messages: POST /v1/messages.

func anthropicTurn(req map[string]any) turn {
	t := turn{stream: req["stream"] == true, tools: toolsOf(req, func(m map[string]any) (string, map[string]any) {
		return str(m["name"]), obj(m["input_schema"])
	})}
	// Claude Code puts system messages after the person's.
	last := t.lastOf(list(req["messages"]))
	if str(last["role"]) != "user" {
		return t
	}
	if s, ok := last["content"].(string); ok {
		t.lastUser = s
		return t
	}
	var texts []string
	for _, b := range list(last["content"]) {
		bm := obj(b)
		switch str(bm["type"]) {
		case "tool_result":
			t.toolResult = true
			t.resultOf = str(bm["tool_use_id"])
			t.result = resultText(bm["content"])
		case "text":
			// Agents add their own reminders as text blocks next to what the person typed.
			if s := str(bm["text"]); !strings.HasPrefix(strings.TrimSpace(s), "<") {
				texts = append(texts, s)
			}
		}
	}
	// The person's newest words come last; earlier ones may be merged in with tool results.
	if len(texts) > 0 {
		t.lastUser = texts[len(texts)-1]
	}
	return t
}

func (s *Server) anthropic(w http.ResponseWriter, r *http.Request, t turn, rp reply) {
	if rp.status != 0 {
		kind := map[int]string{400: "invalid_request_error", 500: "api_error"}[rp.status]
		writeJSON(w, rp.status, map[string]any{"type": "error", "error": map[string]any{"type": kind, "message": rp.text}})
		return
	}
	usage := map[string]any{"input_tokens": 100, "output_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	stop := "end_turn"
	if rp.toolName != "" {
		stop = "tool_use"
	}
	if !t.stream {
		var content []any
		if rp.toolName != "" {
			content = append(content, map[string]any{"type": "tool_use", "id": ToolUseID(rp.id), "name": rp.toolName, "input": rp.toolArgs})
		} else {
			content = append(content, map[string]any{"type": "text", "text": rp.text})
		}
		writeJSON(w, 200, map[string]any{"id": "msg_standin" + rp.id, "type": "message", "role": "assistant", "model": "standin-model",
			"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}
	e := newSSE(w)
	e.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_standin" + rp.id, "type": "message",
		"role": "assistant", "model": "standin-model", "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	if rp.toolName != "" {
		args, _ := json.Marshal(rp.toolArgs)
		e.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": ToolUseID(rp.id), "name": rp.toolName, "input": map[string]any{}}})
		e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(args)}})
	} else {
		e.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		rp.chunks(r.Context().Done(), func(p string) {
			e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
				"delta": map[string]any{"type": "text_delta", "text": p}})
		})
	}
	e.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	e.event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 10}})
	e.event("message_stop", map[string]any{"type": "message_stop"})
}

// resultText is a tool result's text: a string, or the text of its blocks ("text", or OpenAI's
// "input_text" and "output_text").
func resultText(content any) string {
	if s, ok := content.(string); ok {
		return s
	}
	var texts []string
	for _, b := range list(content) {
		if bm := obj(b); strings.HasSuffix(str(bm["type"]), "text") {
			texts = append(texts, str(bm["text"]))
		}
	}
	return strings.Join(texts, "\n")
}
