package herdrsock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/report"
)

// Request is one line a client writes.
type Request struct {
	ID     string          `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// Error is the error half of an answer. Codes are herdr's where herdr has one.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Error codes the socket answers with.
const (
	CodeInvalidRequest   = "invalid_request" // not one JSON request, or params of the wrong shape
	CodeInvalidAgent     = "invalid_agent"   // an empty or too long agent (herdr's code)
	CodePaneNotFound     = "pane_not_found"  // the caller runs in no tmux pane of this server
	CodePaneMismatch     = "pane_mismatch"   // the request names a pane that is not the caller's
	CodeForbidden        = "forbidden"       // the connecting process belongs to another user
	CodeNotSupported     = "not_supported"   // a herdr method taw does not serve
	CodeAgentNotFound    = "agent_not_found" // agent.get found no such agent
	CodeAgentAmbiguous   = "agent_target_ambiguous"
	CodeInternal         = "internal_error"
	CodeServerNotRunning = "server_not_running" // the tmux server went away
)

// answer is one line the server writes.
type answer struct {
	ID     string `json:"id"`
	Result any    `json:"result,omitempty"`
	Error  *Error `json:"error,omitempty"`
}

// ok is the result of every write method, as herdr answers it.
var ok = okResult{Type: "ok"}

// ParseRequest reads one line. herdr answers a line it cannot read with invalid_request and an
// empty id; so does taw.
func ParseRequest(line []byte) (Request, *Error) {
	var req Request
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&req); err != nil {
		return Request{}, errorf(CodeInvalidRequest, "invalid request: %s: send one JSON object {\"id\",\"method\",\"params\"} on one line", jsonProblem(err))
	}
	if dec.More() {
		return Request{}, errorf(CodeInvalidRequest, "invalid request: more than one JSON value on the line: send one request per connection")
	}
	if req.Method == "" {
		return req, errorf(CodeInvalidRequest, "invalid request: no method")
	}
	return req, nil
}

// jsonProblem says what was wrong with a line without echoing it back.
func jsonProblem(err error) string {
	switch e := err.(type) {
	case *json.SyntaxError:
		return fmt.Sprintf("not JSON at byte %d", e.Offset)
	case *json.UnmarshalTypeError:
		if e.Field != "" {
			return fmt.Sprintf("%s must be a %s", e.Field, jsonKind(e.Type.Kind().String()))
		}
		return "not a JSON object"
	}
	return "not JSON"
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string", "ptr":
		return "string"
	case "uint64", "int", "int64":
		return "whole number"
	case "slice":
		return "list"
	case "map", "struct":
		return "object"
	}
	return goKind
}

// reportParams are the params of herdr's pane.report_agent, pane.report_agent_session and
// pane.release_agent; fields a method does not take are ignored, as herdr ignores them.
type reportParams struct {
	PaneID       *string `json:"pane_id"`
	Source       *string `json:"source"`
	Agent        *string `json:"agent"`
	State        *string `json:"state"`
	Message      *string `json:"message"`
	Seq          *uint64 `json:"seq"`
	SessionID    *string `json:"agent_session_id"`
	SessionPath  *string `json:"agent_session_path"`
	SessionStart *string `json:"session_start_source"`
}

// DecodeReport turns a report method's params into the report the rules take and the pane the
// client named, checked as the command line checks its flags.
func DecodeReport(method string, params json.RawMessage) (pane string, rep report.Report, e *Error) {
	switch method {
	case "pane.report_agent":
		rep.Verb = report.ReportAgent
	case "pane.report_agent_session":
		rep.Verb = report.ReportSession
	case "pane.release_agent":
		rep.Verb = report.ReleaseAgent
	default:
		return "", rep, errorf(CodeInvalidRequest, "invalid request: %s is not a report", method)
	}
	var p reportParams
	if len(bytes.TrimSpace(params)) == 0 || string(bytes.TrimSpace(params)) == "null" {
		return "", rep, errorf(CodeInvalidRequest, "invalid request: %s needs params {pane_id, source, agent, …}", method)
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return "", rep, errorf(CodeInvalidRequest, "invalid request: params of %s: %s", method, jsonProblem(err))
	}
	for _, req := range []struct {
		name string
		v    *string
	}{{"pane_id", p.PaneID}, {"source", p.Source}, {"agent", p.Agent}} {
		if req.v == nil {
			return "", rep, errorf(CodeInvalidRequest, "invalid request: %s needs %s", method, req.name)
		}
	}
	var err error
	if rep.Source, err = report.CheckText(*p.Source, report.MaxSourceBytes); err != nil {
		return "", rep, errorf(CodeInvalidRequest, "source %v", err)
	}
	agent, err := report.CheckText(*p.Agent, report.MaxAgentBytes)
	if err != nil {
		return "", rep, errorf(CodeInvalidAgent, "agent %v", err)
	}
	rep.Agent = agents.Canonical(agent)
	rep.Seq = p.Seq
	if rep.Verb == report.ReportAgent {
		if p.State == nil {
			return "", rep, errorf(CodeInvalidRequest, "invalid request: pane.report_agent needs state: idle, working, blocked or unknown")
		}
		if !report.ValidState(*p.State) {
			return "", rep, errorf(CodeInvalidRequest, "invalid pane agent state %q (expected idle, working, blocked, or unknown)", *p.State)
		}
		rep.State = *p.State
		if p.Message != nil {
			m := report.CleanMessage(*p.Message)
			rep.Message = &m
		}
	}
	if rep.Verb != report.ReleaseAgent {
		if rep.SessionID, e = optionalSession("agent_session_id", p.SessionID, report.MaxSessionIDBytes); e != nil {
			return "", rep, e
		}
		if rep.SessionPath, e = optionalSession("agent_session_path", p.SessionPath, report.MaxSessionPathBytes); e != nil {
			return "", rep, e
		}
	}
	if rep.Verb == report.ReportSession {
		if rep.SessionStart, e = optional("session_start_source", p.SessionStart, report.MaxSessionStartBytes); e != nil {
			return "", rep, e
		}
	}
	return strings.TrimSpace(*p.PaneID), rep, nil
}

func optional(name string, v *string, max int) (*string, *Error) {
	if v == nil {
		return nil, nil
	}
	t, err := report.CheckOptionalText(*v, max)
	if err != nil {
		return nil, errorf(CodeInvalidRequest, "%s %v", name, err)
	}
	return &t, nil
}

// optionalSession is optional for a session id or path (report.CheckSession).
func optionalSession(name string, v *string, max int) (*string, *Error) {
	if v == nil {
		return nil, nil
	}
	t, err := report.CheckSession(*v, max)
	if err != nil {
		return nil, errorf(CodeInvalidRequest, "%s %v", name, err)
	}
	return &t, nil
}

// targetParams are the params of the read methods: pane.get names a pane, agent.get a target.
type targetParams struct {
	PaneID *string `json:"pane_id"`
	Target *string `json:"target"`
}

func decodeTarget(method, field string, params json.RawMessage) (string, *Error) {
	var p targetParams
	if len(bytes.TrimSpace(params)) > 0 {
		if err := json.Unmarshal(params, &p); err != nil {
			return "", errorf(CodeInvalidRequest, "invalid request: params of %s: %s", method, jsonProblem(err))
		}
	}
	v := p.PaneID
	if field == "target" {
		v = p.Target
	}
	if v == nil || strings.TrimSpace(*v) == "" {
		return "", errorf(CodeInvalidRequest, "invalid request: %s needs %s", method, field)
	}
	return strings.TrimSpace(*v), nil
}
