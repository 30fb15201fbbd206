package standin

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Gemini: POST …/models/<model>:generateContent and :streamGenerateContent?alt=sse.

func geminiTurn(req map[string]any) turn {
	var t turn
	for _, v := range list(req["tools"]) {
		for _, d := range list(obj(v)["functionDeclarations"]) {
			dm := obj(d)
			schema := obj(dm["parametersJsonSchema"])
			if schema == nil {
				schema = obj(dm["parameters"])
			}
			if n := str(dm["name"]); n != "" {
				t.tools = append(t.tools, tool{name: n, schema: schema})
			}
		}
	}
	gc := obj(req["generationConfig"])
	if sc := obj(gc["responseJsonSchema"]); sc != nil {
		t.schema = sc
	} else if sc := obj(gc["responseSchema"]); sc != nil {
		t.schema = sc
	}
	contents := list(req["contents"])
	t.length = len(contents)
	if len(contents) == 0 {
		return t
	}
	last := obj(contents[len(contents)-1])
	if str(last["role"]) != "user" && str(last["role"]) != "" {
		return t
	}
	var texts []string
	for _, p := range list(last["parts"]) {
		pm := obj(p)
		if fr := pm["functionResponse"]; fr != nil {
			t.toolResult = true
			b, _ := json.Marshal(fr)
			t.result = string(b)
		}
		if s := str(pm["text"]); s != "" && !strings.HasPrefix(strings.TrimSpace(s), "<") {
			texts = append(texts, s)
		}
	}
	t.lastUser = strings.Join(texts, "\n")
	return t
}

func (s *Server) gemini(w http.ResponseWriter, r *http.Request, t turn, rp reply) {
	if rp.status != 0 {
		status := map[int]string{400: "INVALID_ARGUMENT", 500: "INTERNAL"}[rp.status]
		writeJSON(w, rp.status, map[string]any{"error": map[string]any{"code": rp.status, "message": rp.text, "status": status}})
		return
	}
	usage := map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110}
	candidate := func(parts []any, finish string) map[string]any {
		c := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
		if finish != "" {
			c["finishReason"] = finish
		}
		return map[string]any{"candidates": []any{c}, "usageMetadata": usage, "modelVersion": "standin-model"}
	}
	if rp.toolName != "" {
		parts := []any{map[string]any{"functionCall": map[string]any{"name": rp.toolName, "args": rp.toolArgs}}}
		if !t.stream {
			writeJSON(w, 200, candidate(parts, "STOP"))
			return
		}
		newSSE(w).event("", candidate(parts, "STOP"))
		return
	}
	if !t.stream {
		writeJSON(w, 200, candidate([]any{map[string]any{"text": rp.text}}, "STOP"))
		return
	}
	e := newSSE(w)
	var pending []string
	rp.chunks(r.Context().Done(), func(p string) {
		pending = append(pending, p)
		if rp.slow {
			e.event("", candidate([]any{map[string]any{"text": strings.Join(pending, "")}}, ""))
			pending = nil
		}
	})
	e.event("", candidate([]any{map[string]any{"text": strings.Join(pending, "")}}, "STOP"))
}
