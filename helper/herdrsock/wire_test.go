package herdrsock

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/report"
)

func ptr[T any](v T) *T { return &v }

func TestParseRequest(t *testing.T) {
	tests := []struct {
		line   string
		method string
		code   string // "" when it parses
	}{
		{`{"id":"a","method":"ping","params":{}}`, "ping", ""},
		{`{"id":"a","method":"ping"}`, "ping", ""}, // herdr's ping takes no params
		{`{"id":"a","method":"ping","params":{}}` + "\r\n", "ping", ""},
		{`{"id":"a","method":`, "", CodeInvalidRequest},
		{`not json`, "", CodeInvalidRequest},
		{`[1,2]`, "", CodeInvalidRequest},
		{`{"id":7,"method":"ping"}`, "", CodeInvalidRequest}, // herdr's ids are strings
		{`{"id":"a"}`, "", CodeInvalidRequest},
		// Two requests on one line: herdr reads one per connection, so the second is refused.
		{`{"id":"a","method":"ping"} {"id":"b","method":"ping"}`, "", CodeInvalidRequest},
	}
	for _, tt := range tests {
		req, err := ParseRequest([]byte(tt.line))
		switch {
		case tt.code == "" && err != nil:
			t.Errorf("%q: unexpected error %v", tt.line, err)
		case tt.code != "" && (err == nil || err.Code != tt.code):
			t.Errorf("%q: error %v, want code %s", tt.line, err, tt.code)
		case tt.code == "" && req.Method != tt.method:
			t.Errorf("%q: method %q, want %q", tt.line, req.Method, tt.method)
		}
	}
}

func TestDecodeReport(t *testing.T) {
	tests := []struct {
		name, method, params string
		pane                 string
		want                 report.Report
		code, msg            string
	}{
		{name: "crush", method: "pane.report_agent",
			params: `{"pane_id":"%calling","source":"crush","agent":"crush","state":"idle","seq":1764633600123456789,"agent_session_id":""}`,
			pane:   "%calling",
			want:   report.Report{Verb: report.ReportAgent, Source: "crush", Agent: "crush", State: "idle", Seq: ptr(uint64(1764633600123456789)), SessionID: ptr("")}},
		// An alias becomes the catalogue's id, as on the command line.
		{name: "alias", method: "pane.report_agent", params: `{"pane_id":"%calling","source":"s","agent":"claude-code","state":"working"}`,
			pane: "%calling", want: report.Report{Verb: report.ReportAgent, Source: "s", Agent: "claude", State: "working"}},
		{name: "message cleaned, null ignored", method: "pane.report_agent",
			params: `{"pane_id":"%calling","source":"s","agent":"a","state":"blocked","message":"ok?\n\u001b[31m","agent_session_path":null}`,
			pane:   "%calling", want: report.Report{Verb: report.ReportAgent, Source: "s", Agent: "a", State: "blocked", Message: ptr("ok?  [31m")}},
		{name: "pi session", method: "pane.report_agent_session",
			params: `{"pane_id":"%calling","source":"herdr:pi","agent":"pi","seq":1764633600123001,"session_start_source":"startup","agent_session_path":"/s/a.jsonl"}`,
			pane:   "%calling",
			want:   report.Report{Verb: report.ReportSession, Source: "herdr:pi", Agent: "pi", Seq: ptr(uint64(1764633600123001)), SessionPath: ptr("/s/a.jsonl"), SessionStart: ptr("startup")}},
		// A release takes no session: pi sends its path anyway, herdr ignores it, so does taw.
		{name: "pi release", method: "pane.release_agent",
			params: `{"pane_id":"%calling","source":"herdr:pi","agent":"pi","seq":9,"agent_session_path":"/s/a.jsonl"}`,
			pane:   "%calling", want: report.Report{Verb: report.ReleaseAgent, Source: "herdr:pi", Agent: "pi", Seq: ptr(uint64(9))}},
		// The state of report-agent is ignored elsewhere, as herdr ignores unknown fields.
		{name: "session ignores state", method: "pane.report_agent_session",
			params: `{"pane_id":"w1:p1","source":"s","agent":"a","state":"working","custom_status":"x"}`,
			pane:   "w1:p1", want: report.Report{Verb: report.ReportSession, Source: "s", Agent: "a"}},
		{name: "no params", method: "pane.report_agent", params: ``, code: CodeInvalidRequest, msg: "needs params"},
		{name: "no pane", method: "pane.report_agent", params: `{"source":"s","agent":"a","state":"idle"}`, code: CodeInvalidRequest, msg: "needs pane_id"},
		{name: "no state", method: "pane.report_agent", params: `{"pane_id":"%calling","source":"s","agent":"a"}`, code: CodeInvalidRequest, msg: "needs state"},
		{name: "bad state", method: "pane.report_agent", params: `{"pane_id":"%calling","source":"s","agent":"a","state":"done"}`, code: CodeInvalidRequest, msg: `invalid pane agent state "done"`},
		{name: "seq string", method: "pane.report_agent", params: `{"pane_id":"%calling","source":"s","agent":"a","state":"idle","seq":"1"}`, code: CodeInvalidRequest, msg: "seq must be a whole number"},
		{name: "seq negative", method: "pane.report_agent", params: `{"pane_id":"%calling","source":"s","agent":"a","state":"idle","seq":-1}`, code: CodeInvalidRequest, msg: "seq must be a whole number"},
		{name: "empty agent", method: "pane.release_agent", params: `{"pane_id":"%calling","source":"s","agent":"  "}`, code: "invalid_agent", msg: "agent is empty"},
		{name: "control in source", method: "pane.release_agent", params: `{"pane_id":"%calling","source":"a\u0007b","agent":"x"}`, code: CodeInvalidRequest, msg: "source holds a control character"},
		{name: "long session id", method: "pane.report_agent_session", params: `{"pane_id":"%calling","source":"s","agent":"a","agent_session_id":"` + strings.Repeat("x", 513) + `"}`, code: CodeInvalidRequest, msg: "agent_session_id is 513 bytes long"},
		{name: "session id that reads as an option", method: "pane.report_agent_session", params: `{"pane_id":"%calling","source":"s","agent":"claude","agent_session_id":"--dangerously-skip-permissions"}`, code: CodeInvalidRequest, msg: "agent_session_id starts with -: the agent would read it as an option"},
		{name: "session path that reads as an option", method: "pane.report_agent", params: `{"pane_id":"%calling","source":"s","agent":"pi","state":"idle","agent_session_path":" -e x"}`, code: CodeInvalidRequest, msg: "agent_session_path starts with -"},
		{name: "params not an object", method: "pane.report_agent", params: `[1]`, code: CodeInvalidRequest, msg: "params of pane.report_agent"},
	}
	for _, tt := range tests {
		pane, rep, err := DecodeReport(tt.method, json.RawMessage(tt.params))
		if tt.code != "" {
			if err == nil || err.Code != tt.code || !strings.Contains(err.Message, tt.msg) {
				t.Errorf("%s: error %v, want %s containing %q", tt.name, err, tt.code, tt.msg)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: unexpected error %v", tt.name, err)
			continue
		}
		if pane != tt.pane || !reflect.DeepEqual(rep, tt.want) {
			t.Errorf("%s: got %q %+v, want %q %+v", tt.name, pane, rep, tt.pane, tt.want)
		}
	}
}
