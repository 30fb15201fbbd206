package wire

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
)

func strp(s string) *string { return &s }
func i32p(n int32) *int32   { return &n }
func u32p(n uint32) *uint32 { return &n }

var sampleState = PaneState{
	PaneID: "p1", AdapterID: "shell", Lifecycle: Lifecycle{Phase: PhaseRunning}, PID: u32p(4242),
	WorkingDir: `D:\repo`, Size: PaneSize{Rows: 30, Cols: 120},
	Scrollback: ScrollbackInfo{TotalBytes: 2048, FirstAbsLine: 0, LastAbsLine: 57}, CreatedAt: 1700000000000,
}

const sampleStateJSON = `{"pane_id":"p1","adapter_id":"shell","display_name":null,"lifecycle":"running","pid":4242,"exit_code":null,"working_dir":"D:\\repo","size":{"rows":30,"cols":120},"scrollback":{"total_bytes":2048,"first_abs_line":0,"last_abs_line":57},"created_at":1700000000000}`

var sampleSpawn = SpawnRequest{
	PaneID: "p1",
	Command: CommandSpec{Program: `C:\Windows\System32\cmd.exe`, Args: []string{"/k", "echo hi"},
		Cwd: strp(`D:\repo`), Env: [][2]string{{"K", "V"}}},
	Size: PaneSize{Rows: 30, Cols: 120}, AdapterID: "shell", DisplayName: strp("rev"), CreatedAt: 1700000000000,
}

const sampleSpawnJSON = `{"pane_id":"p1","command":{"program":"C:\\Windows\\System32\\cmd.exe","args":["/k","echo hi"],"cwd":"D:\\repo","env":[["K","V"]]},"size":{"rows":30,"cols":120},"adapter_id":"shell","display_name":"rev","created_at":1700000000000}`

// The op examples of the protocol reference, byte for byte.
var goldenOps = []struct {
	json string
	op   Op
}{
	{`{"Spawn":` + sampleSpawnJSON + `}`, &OpSpawn{Request: sampleSpawn}},
	{`{"Send":{"pane_id":"p1","data":"ZWNobyBoaQ0="}}`, &OpSend{PaneID: "p1", Data: []byte("echo hi\r")}},
	{`{"Capture":{"pane_id":"p1","range":"All","ansi":false}}`, &OpCapture{Request: CaptureRequest{PaneID: "p1", Range: CaptureRange{Kind: RangeAll}}}},
	{`{"Capture":{"pane_id":"p1","range":{"LastBytes":1024},"ansi":true}}`, &OpCapture{Request: CaptureRequest{PaneID: "p1", Range: CaptureRange{Kind: RangeLastBytes, LastBytes: 1024}, Ansi: true}}},
	{`{"Capture":{"pane_id":"p1","range":{"LineRange":{"start_abs":5,"end_abs":20}},"ansi":false}}`, &OpCapture{Request: CaptureRequest{PaneID: "p1", Range: CaptureRange{Kind: RangeLineRange, StartAbs: 5, EndAbs: 20}}}},
	{`{"Resize":{"pane_id":"p1","size":{"rows":40,"cols":100}}}`, &OpResize{PaneID: "p1", Size: PaneSize{Rows: 40, Cols: 100}}},
	{`{"KillTree":{"pane_id":"p1"}}`, &OpKillTree{PaneID: "p1"}},
	{`"ListPanes"`, &OpListPanes{}},
	{`{"Respawn":` + sampleSpawnJSON + `}`, &OpRespawn{Request: sampleSpawn}},
	{`{"Subscribe":{"pane_id":"p1"}}`, &OpSubscribe{PaneID: "p1"}},
	{`{"Unsubscribe":{"pane_id":"p1"}}`, &OpUnsubscribe{PaneID: "p1"}},
	{`{"Attach":{"pane_id":"p1"}}`, &OpAttach{PaneID: "p1"}},
	{`"ListThemes"`, &OpListThemes{}},
	{`{"SetTheme":{"id":"b-dark-ink"}}`, &OpSetTheme{ID: "b-dark-ink"}},
	{`"KillServer"`, &OpKillServer{}},
	{`{"PinExecutable":{"path":"C:\\shim\\tool.cmd"}}`, &OpPinExecutable{Path: `C:\shim\tool.cmd`}},
	{`{"UnpinExecutable":{"path":"C:\\shim\\tool.cmd"}}`, &OpUnpinExecutable{Path: `C:\shim\tool.cmd`}},
}

func TestGoldenOps(t *testing.T) {
	names := map[string]bool{}
	for _, g := range goldenOps {
		names[OpName(g.op)] = true
		got, err := EncodeOp(g.op)
		if err != nil || string(got) != g.json {
			t.Errorf("EncodeOp(%s):\n got %s (%v)\nwant %s", OpName(g.op), got, err, g.json)
		}
		back, err := DecodeOp([]byte(g.json))
		if err != nil || !reflect.DeepEqual(back, g.op) {
			t.Errorf("DecodeOp(%s) = %#v, %v; want %#v", g.json, back, err, g.op)
		}
	}
	if len(names) != 15 {
		t.Errorf("golden ops cover %d variants, want all 15", len(names))
	}
}

// The payload examples, each inside a Reply frame.
var goldenPayloads = []struct {
	json    string
	payload Payload
}{
	{`{"Spawned":"p1"}`, &Spawned{PaneID: "p1"}},
	{`"Sent"`, AckSent},
	{`{"Captured":{"data_base64":"aGk=","first_abs_line":0,"last_abs_line":1,"truncated":false,"effectively_full":true}}`,
		&Captured{Result: CaptureResult{Data: []byte("hi"), LastAbsLine: 1, EffectivelyFull: true}}},
	{`"Resized"`, AckResized},
	{`"Killed"`, AckKilled},
	{`{"Panes":[` + sampleStateJSON + `]}`, &Panes{Panes: []PaneState{sampleState}}},
	{`{"Panes":[]}`, &Panes{Panes: []PaneState{}}},
	{`"Subscribed"`, AckSubscribed},
	{`"Unsubscribed"`, AckUnsubscribed},
	{`{"AttachSnapshot":{"mode_preamble_b64":"G1s/MTA0OWg=","history_b64":"aGVsbG8=","last_seq":42,"pane_state":` + sampleStateJSON + `}}`,
		&AttachSnapshot{ModePreamble: []byte("\x1b[?1049h"), History: []byte("hello"), LastSeq: 42, PaneState: sampleState}},
	{`"ThemeSet"`, AckThemeSet},
	{`"ServerKillScheduled"`, AckServerKillScheduled},
	{`"Pinned"`, AckPinned},
	{`"Unpinned"`, AckUnpinned},
}

func TestGoldenPayloads(t *testing.T) {
	for _, g := range goldenPayloads {
		frame := `{"Reply":{"Ok":{"correlation_id":1,"payload":` + g.json + `}}}`
		checkFrame(t, frame, &Reply{CorrelationID: 1, Payload: g.payload})
	}
}

func TestGoldenThemesPayloadIsTheReferenceFile(t *testing.T) {
	ref, err := os.ReadFile("themes.json")
	if err != nil {
		t.Fatal(err)
	}
	ref = bytes.TrimSpace(ref)
	if len(BuiltinThemes()) != 9 || BuiltinThemes()[0].ID != "b-dark-ink" || BuiltinThemes()[0].Name != "暗 · 蓝墨" {
		t.Fatalf("built-in themes: got %d, first %+v", len(BuiltinThemes()), BuiltinThemes()[0])
	}
	frame := `{"Reply":{"Ok":{"correlation_id":3,"payload":{"Themes":` + string(ref) + `}}}}`
	checkFrame(t, frame, &Reply{CorrelationID: 3, Payload: &Themes{Themes: BuiltinThemes()}})
	wantOrder := []string{"b-dark-ink", "b-dark-graphite", "b-dark-near-black", "b-dark-warm-charcoal", "b-light-paper",
		"b-light-cool-white", "b-paper-term", "a-control-desk-term", "c-phosphor-term"}
	for i, id := range wantOrder {
		if BuiltinThemes()[i].ID != id {
			t.Errorf("theme %d is %q, want %q", i, BuiltinThemes()[i].ID, id)
		}
	}
}

// Every ConmuxError variant.
var goldenErrors = []struct {
	json string
	err  *Error
}{
	{`{"PaneNotFound":{"pane_id":"p9"}}`, &Error{Kind: ErrPaneNotFound, PaneID: "p9"}},
	{`{"SpawnFailed":{"message":"..."}}`, &Error{Kind: ErrSpawnFailed, Message: "..."}},
	{`{"NonAbsoluteProgram":{"program":"cmd"}}`, &Error{Kind: ErrNonAbsoluteProgram, Program: "cmd"}},
	{`{"UntrustedProgram":{"program":"C:\\x.exe","reason":"..."}}`, &Error{Kind: ErrUntrustedProgram, Program: `C:\x.exe`, Reason: "..."}},
	{`{"PtyError":{"message":"..."}}`, &Error{Kind: ErrPtyError, Message: "..."}},
	{`{"SupervisorError":{"message":"..."}}`, &Error{Kind: ErrSupervisorError, Message: "..."}},
	{`{"InjectionRejected":{"reason":"..."}}`, &Error{Kind: ErrInjectionRejected, Reason: "..."}},
	{`{"RuntimeError":{"message":"..."}}`, &Error{Kind: ErrRuntimeError, Message: "..."}},
	{`{"SerializationError":{"message":"..."}}`, &Error{Kind: ErrSerializationError, Message: "..."}},
	{`{"Unsupported":{"message":"..."}}`, &Error{Kind: ErrUnsupported, Message: "..."}},
	{`{"Busy":{"message":"..."}}`, &Error{Kind: ErrBusy, Message: "..."}},
}

func TestGoldenErrors(t *testing.T) {
	if len(goldenErrors) != len(errorFields) {
		t.Fatalf("golden errors cover %d variants, the type has %d", len(goldenErrors), len(errorFields))
	}
	for _, g := range goldenErrors {
		checkFrame(t, `{"Reply":{"Err":{"correlation_id":7,"error":`+g.json+`}}}`, &Reply{CorrelationID: 7, Error: g.err})
	}
	if _, err := DecodeFrame([]byte(`{"Reply":{"Err":{"correlation_id":7,"error":"Busy"}}}`)); err == nil {
		t.Error(`a bare "Busy" error decoded; it is a struct variant and must be rejected`)
	}
}

func TestGoldenFrames(t *testing.T) {
	for _, g := range []struct {
		json  string
		frame Frame
	}{
		{`{"Hello":{"protocol_version":1,"client_kind":"conmux-cli"}}`, &Hello{ProtocolVersion: 1, ClientKind: "conmux-cli"}},
		{`{"HelloAck":{"protocol_version":1,"daemon_version":"0.1.1"}}`, &HelloAck{ProtocolVersion: 1, DaemonVersion: "0.1.1"}},
		{`{"Request":{"correlation_id":8,"op":"ListPanes"}}`, &Request{CorrelationID: 8, Op: &OpListPanes{}}},
		{`{"Reply":{"Ok":{"correlation_id":2,"payload":"Sent"}}}`, &Reply{CorrelationID: 2, Payload: AckSent}},
		{`{"Notify":{"PaneOutput":{"pane_id":"p1","seq":7,"data":"ABv/"}}}`, &Notify{Event: &PaneOutput{PaneID: "p1", Seq: 7, Data: []byte{0, 0x1b, 0xff}}}},
		{`{"Notify":{"PaneExited":{"pane_id":"p1","exit_code":0}}}`, &Notify{Event: &PaneExited{PaneID: "p1", ExitCode: i32p(0)}}},
		{`{"Notify":{"PaneExited":{"pane_id":"p1","exit_code":null}}}`, &Notify{Event: &PaneExited{PaneID: "p1"}}},
		{`{"Notify":{"ThemeChanged":{"id":"b-dark-ink"}}}`, &Notify{Event: &ThemeChanged{ID: "b-dark-ink"}}},
	} {
		checkFrame(t, g.json, g.frame)
	}
	// The reference's frame lengths: Hello is 59 bytes, HelloAck 60.
	hello, _ := Encode(&Hello{ProtocolVersion: 1, ClientKind: "conmux-cli"})
	ack, _ := Encode(&HelloAck{ProtocolVersion: 1, DaemonVersion: DaemonVersion})
	framed, _ := AppendFrame(nil, hello)
	if len(hello) != 59 || len(ack) != 60 || !bytes.Equal(framed[:4], []byte{0x3b, 0, 0, 0}) {
		t.Errorf("Hello is %d bytes (prefix % x), HelloAck %d; want 59 (3b 00 00 00) and 60", len(hello), framed[:4], len(ack))
	}
}

func TestLifecycleAndOptionals(t *testing.T) {
	s := sampleState
	s.Lifecycle = Lifecycle{Phase: PhaseExited, ExitCode: -3}
	s.ExitCode = i32p(-3)
	s.DisplayName = strp("名前 <&>")
	s.PID = nil
	want := strings.Replace(sampleStateJSON, `"display_name":null,"lifecycle":"running","pid":4242,"exit_code":null`,
		`"display_name":"名前 <&>","lifecycle":{"exited":-3},"pid":null,"exit_code":-3`, 1)
	checkFrame(t, `{"Reply":{"Ok":{"correlation_id":1,"payload":{"Panes":[`+want+`]}}}}`, &Reply{CorrelationID: 1, Payload: &Panes{Panes: []PaneState{s}}})
	// Missing Option fields read as None; other missing fields fail.
	short := `{"pane_id":"p1","adapter_id":"shell","lifecycle":"zombie","working_dir":"","size":{"rows":1,"cols":2},"scrollback":{"total_bytes":0,"first_abs_line":0,"last_abs_line":0},"created_at":5}`
	f, err := DecodeFrame([]byte(`{"Reply":{"Ok":{"correlation_id":1,"payload":{"Panes":[` + short + `]}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	got := f.(*Reply).Payload.(*Panes).Panes[0]
	if got.PID != nil || got.ExitCode != nil || got.DisplayName != nil || got.Lifecycle.Phase != PhaseZombie {
		t.Errorf("missing options: %+v", got)
	}
}

func TestStringEscaping(t *testing.T) {
	e := &encoder{}
	e.str("a\"b\\c\x01\x1f\b\f\n\r\t/<>&\u2028é\xff")
	want := `"a\"b\\c\u0001\u001f\b\f\n\r\t/<>&` + "\u2028é\ufffd" + `"`
	if string(e.buf) != want {
		t.Errorf("got %s want %s", e.buf, want)
	}
}

func checkFrame(t *testing.T, json string, want Frame) {
	t.Helper()
	got, err := Encode(want)
	if err != nil || string(got) != json {
		t.Errorf("Encode:\n got %s (%v)\nwant %s", got, err, json)
	}
	back, err := DecodeFrame([]byte(json))
	if err != nil {
		t.Errorf("DecodeFrame(%s): %v", json, err)
		return
	}
	if !reflect.DeepEqual(back, want) {
		t.Errorf("DecodeFrame(%s):\n got %#v\nwant %#v", json, back, want)
	}
}
