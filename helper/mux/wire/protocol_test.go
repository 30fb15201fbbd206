package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// Ports of the protocol's own living-documentation tests.

func TestAllOpsRoundTrip(t *testing.T) {
	spawn := SpawnRequest{
		PaneID:  "p1",
		Command: CommandSpec{Program: "cmd.exe", Args: []string{"/c", "echo hi"}, Cwd: strp(`D:\repo`), Env: [][2]string{{"K", "V"}}},
		Size:    PaneSize{Rows: 30, Cols: 120}, AdapterID: "claude-code", DisplayName: strp("rev"), CreatedAt: 1700000000,
	}
	ops := []Op{
		&OpSpawn{Request: spawn},
		&OpSend{PaneID: "p1", Data: []byte("x")},
		&OpCapture{Request: CaptureRequest{PaneID: "p1", Range: CaptureRange{Kind: RangeLastBytes, LastBytes: 1024}}},
		&OpResize{PaneID: "p1", Size: PaneSize{Rows: 10, Cols: 20}},
		&OpKillTree{PaneID: "p1"},
		&OpListPanes{},
		&OpRespawn{Request: spawn},
		&OpSubscribe{PaneID: "p1"},
		&OpUnsubscribe{PaneID: "p1"},
		&OpAttach{PaneID: "p1"},
		&OpListThemes{},
		&OpSetTheme{ID: "b-dark-ink"},
		&OpKillServer{},
		&OpPinExecutable{Path: `C:\shim\tool.cmd`},
		&OpUnpinExecutable{Path: `C:\shim\tool.cmd`},
	}
	if len(ops) != 15 {
		t.Fatalf("%d ops, want 15", len(ops))
	}
	for i, op := range ops {
		req := &Request{CorrelationID: uint64(i), Op: op}
		body, err := Encode(req)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeFrame(body)
		if err != nil || !reflect.DeepEqual(back, req) {
			t.Errorf("op %d (%s) did not round-trip: %s → %#v, %v", i, OpName(op), body, back, err)
		}
	}
}

func TestRepliesRoundTripIncludingErrPath(t *testing.T) {
	for _, r := range []*Reply{
		{CorrelationID: 1, Payload: &Spawned{PaneID: "p1"}},
		{CorrelationID: 2, Payload: AckSent},
		{CorrelationID: 3, Payload: &Captured{Result: CaptureResult{Data: []byte("hi"), LastAbsLine: 1, EffectivelyFull: true}}},
		{CorrelationID: 4, Payload: AckResized},
		{CorrelationID: 5, Payload: AckKilled},
		{CorrelationID: 6, Payload: &Panes{Panes: []PaneState{sampleState}}},
		{CorrelationID: 7, Error: &Error{Kind: ErrPaneNotFound, PaneID: "nope"}},
	} {
		roundTrip(t, r)
	}
}

func TestCorrelationPairing(t *testing.T) {
	ok := &Reply{CorrelationID: 41, Payload: AckSent}
	bad := &Reply{CorrelationID: 42, Error: &Error{Kind: ErrBusy, Message: "x"}}
	for _, r := range []*Reply{ok, bad} {
		back := roundTrip(t, r).(*Reply)
		if back.CorrelationID != r.CorrelationID || back.CorrelationID == r.CorrelationID+1 {
			t.Errorf("reply %d came back as %d", r.CorrelationID, back.CorrelationID)
		}
	}
}

func TestSendWithSourceFieldIsRejectedOnWire(t *testing.T) {
	with := `{"correlation_id":1,"op":{"Send":{"pane_id":"p1","data":"eA==","source":"orchestration_auto"}}}`
	if _, err := DecodeFrame([]byte(`{"Request":` + with + `}`)); err == nil || !strings.Contains(err.Error(), "unknown field `source`") {
		t.Errorf("a Send with source: err = %v, want unknown field `source`", err)
	}
	without := `{"correlation_id":1,"op":{"Send":{"pane_id":"p1","data":"eA=="}}}`
	f, err := DecodeFrame([]byte(`{"Request":` + without + `}`))
	if err != nil {
		t.Fatal(err)
	}
	if d := f.(*Request).Op.(*OpSend).Data; !bytes.Equal(d, []byte("x")) {
		t.Errorf("data = %q, want x", d)
	}
}

func TestM2aPayloadsRoundTrip(t *testing.T) {
	if len(BuiltinThemes()) == 0 {
		t.Fatal("no built-in themes")
	}
	for _, p := range []Payload{
		AckSubscribed, AckUnsubscribed,
		&AttachSnapshot{ModePreamble: []byte("\x1b[?1049h"), History: []byte("hello"), LastSeq: 42, PaneState: sampleState},
		&Themes{Themes: BuiltinThemes()}, AckThemeSet, AckServerKillScheduled, AckPinned,
	} {
		roundTrip(t, &Reply{CorrelationID: 9, Payload: p})
	}
}

func TestWireFrameAllDirectionsRoundTrip(t *testing.T) {
	for _, f := range []Frame{
		&Hello{ProtocolVersion: 1, ClientKind: "conmux-cli"},
		&HelloAck{ProtocolVersion: 1, DaemonVersion: "0.1.0"},
		&Request{CorrelationID: 1, Op: &OpListPanes{}},
		&Reply{CorrelationID: 1, Payload: &Panes{Panes: []PaneState{sampleState}}},
		&Notify{Event: &PaneOutput{PaneID: "p1", Seq: 7, Data: []byte("\x1b[31mred\x1b[0m")}},
		&Notify{Event: &ThemeChanged{ID: "b-dark-ink"}},
	} {
		roundTrip(t, f)
	}
}

func TestPaneOutputDataIsBase64OnWire(t *testing.T) {
	f := &Notify{Event: &PaneOutput{PaneID: "p1", Seq: 1, Data: []byte{0x00, 0x1b, 0xff}}}
	body, _ := Encode(f)
	if !bytes.Contains(body, []byte(`"ABv/"`)) {
		t.Errorf("%s does not carry the bytes as \"ABv/\"", body)
	}
	roundTrip(t, f)
}

func TestHelloRejectsUnknownFields(t *testing.T) {
	if _, err := DecodeFrame([]byte(`{"Hello":{"protocol_version":1,"client_kind":"cli"}}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeFrame([]byte(`{"Hello":{"protocol_version":1,"client_kind":"cli","escalate":"admin"}}`)); err == nil {
		t.Error("a Hello with an unknown field decoded")
	}
}

// Where the protocol denies unknown fields and where it ignores them, and the other strict rules.
func TestStrictDecoding(t *testing.T) {
	spawnWith := func(extra string) string {
		return `{"Request":{"correlation_id":1,"op":{"Spawn":{"pane_id":"p1","command":{"program":"/bin/sh","args":[],"cwd":null,"env":[]` + extra + `},"size":{"rows":1,"cols":2},"adapter_id":"a","display_name":null,"created_at":1}}}}`
	}
	accept := []string{
		`{"Request":{"correlation_id":1,"op":"ListPanes","extra":1}}`,
		`{"Request":{"correlation_id":1,"op":{"ListPanes":null}}}`,
		spawnWith(`,"source":"evil"`),
		`{"Request":{"correlation_id":1,"op":{"Capture":{"pane_id":"p","range":{"LineRange":{"start_abs":1,"end_abs":2,"x":0}},"ansi":true,"y":1}}}}`,
		`{"Reply":{"Ok":{"correlation_id":1,"payload":"Sent","z":1}}}`,
		`{"Notify":{"PaneExited":{"pane_id":"p1"}}}`,
		`{"Notify":{"ThemeChanged":{"id":"x","more":[1,{"a":null}]}}}`,
		" \t\r\n" + `{"Request":{"correlation_id":18446744073709551615,"op":"KillServer"}}` + "\n ",
		`{"Request":{"correlation_id":1,"op":{"Send":{"pane_id":"\u00e9\ud83d\ude00","data":""}}}}`,
	}
	for _, s := range accept {
		if _, err := DecodeFrame([]byte(s)); err != nil {
			t.Errorf("rejected %s: %v", s, err)
		}
	}
	reject := map[string]string{
		`{"Hello":{"protocol_version":1,"client_kind":"x"},"Extra":1}`:                                            "2 keys",
		`{"Request":{"correlation_id":1,"op":{"ListPanes":{}}}}`:                                                  "expected unit",
		`{"Request":{"correlation_id":1,"op":"listpanes"}}`:                                                       "unknown variant `listpanes`",
		`{"Request":{"correlation_id":1,"op":"Future"}}`:                                                          "unknown variant `Future`",
		`{"Request":{"op":"ListPanes"}}`:                                                                          "missing field `correlation_id`",
		`{"Request":{"correlation_id":1.0,"op":"ListPanes"}}`:                                                     "floating point",
		`{"Request":{"correlation_id":-1,"op":"ListPanes"}}`:                                                      "invalid value",
		`{"Request":{"correlation_id":18446744073709551616,"op":"ListPanes"}}`:                                    "invalid value",
		`{"Request":{"correlation_id":1,"op":{"Resize":{"pane_id":"p","size":{"rows":70000,"cols":1}}}}}`:         "expected u16",
		`{"Request":{"correlation_id":1,"op":{"Capture":{"pane_id":"p","range":{"LastBytes":-1},"ansi":false}}}}`: "invalid value",
		`{"Request":{"correlation_id":1,"op":{"Capture":{"pane_id":"p","range":"All"}}}}`:                         "missing field `ansi`",
		`{"Request":{"correlation_id":1,"op":{"Send":{"pane_id":"p","data":"eA="}}}}`:                             "invalid base64",
		`{"Request":{"correlation_id":1,"op":{"Send":{"pane_id":"p","data":"eB=="}}}}`:                            "invalid base64",
		`{"Request":{"correlation_id":1,"op":{"Send":{"pane_id":"p","data":"eA==\n"}}}}`:                          "line break",
		`{"Request":{"correlation_id":1,"op":{"Send":{"pane_id":"p","data":"eA==","data":"eA=="}}}}`:              "duplicate field `data`",
		`{"Request":{"correlation_id":1,"op":{"KillTree":{"pane_id":"p","x":1}}}}`:                                "unknown field `x`",
		`{"Request":{"correlation_id":1,"op":{"SetTheme":{"id":"p","x":1}}}}`:                                     "unknown field `x`",
		`{"HelloAck":{"protocol_version":1,"daemon_version":"x","y":2}}`:                                          "unknown field `y`",
		spawnWith(`,"env":[]`): "duplicate field `env`",
		`{"Request":{"correlation_id":1,"op":{"Spawn":{"pane_id":"p1","command":{"program":"/x","args":[],"env":{"K":"V"}},"size":{"rows":1,"cols":2},"adapter_id":"a","created_at":1}}}}`: "expected a sequence",
		`{"Request":{"correlation_id":1,"op":{"Spawn":{"pane_id":"p1","command":{"program":"/x","args":[],"env":[["K"]]},"size":{"rows":1,"cols":2},"adapter_id":"a","created_at":1}}}}`:   "tuple of size 2",
		`{"Request":{"correlation_id":1,"op":{"Spawn":{"pane_id":"p1","command":{"program":"/x","args":[],"env":[]},"size":{"rows":1,"cols":2},"adapter_id":"a"}}}}`:                       "missing field `created_at`",
		`not json at all!`: "expected value",
		"{\"Hello\":{\"protocol_version\":1,\"client_kind\":\"a\xffb\"}}": "invalid unicode",
		`{"Hello":{"protocol_version":1,"client_kind":"\ud800"}}`:         "surrogate",
		`{"Hello":{"protocol_version":1,"client_kind":"x"}} x`:            "trailing characters",
		`{"Hello":{"protocol_version":01,"client_kind":"x"}}`:             "invalid number",
		`"Hello"`: "unit variant",
		strings.Repeat("[", 200) + strings.Repeat("]", 200): "recursion limit",
	}
	for s, want := range reject {
		_, err := DecodeFrame([]byte(s))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("DecodeFrame(%.80s): err = %v, want one mentioning %q", s, err, want)
		}
	}
}

func TestFraming(t *testing.T) {
	frames := []Frame{
		&Hello{ProtocolVersion: 1, ClientKind: "t"},
		&HelloAck{ProtocolVersion: 1, DaemonVersion: DaemonVersion},
		&Request{CorrelationID: 3, Op: &OpListPanes{}},
		&Reply{CorrelationID: 3, Payload: AckSent},
		&Notify{Event: &PaneOutput{PaneID: "p", Seq: 1, Data: []byte{0x00, 0x1b, 0x5b, 0xff}}},
	}
	var buf bytes.Buffer
	for _, f := range frames {
		if err := WriteFrame(&buf, f); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range frames {
		got, err := ReadDecoded(&buf)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("read %#v, %v; want %#v", got, err, want)
		}
	}
	if _, err := ReadFrame(&buf); err != io.EOF {
		t.Errorf("after the last frame: %v, want io.EOF", err)
	}
	if _, err := ReadFrame(bytes.NewReader(nil)); err != io.EOF {
		t.Errorf("empty reader: %v, want io.EOF", err)
	}
	if _, err := ReadFrame(bytes.NewReader([]byte{0x10, 0x00})); err != io.ErrUnexpectedEOF {
		t.Errorf("truncated prefix: %v, want unexpected EOF", err)
	}
	short := binary.LittleEndian.AppendUint32(nil, 100)
	if _, err := ReadFrame(bytes.NewReader(append(short, make([]byte, 10)...))); err != io.ErrUnexpectedEOF {
		t.Errorf("truncated body: %v, want unexpected EOF", err)
	}
	var over *OversizeError
	huge := binary.LittleEndian.AppendUint32(nil, MaxFrameBytes+1)
	if _, err := ReadFrame(bytes.NewReader(huge)); !errors.As(err, &over) || over.Len != MaxFrameBytes+1 {
		t.Errorf("oversize prefix: %v, want OversizeError(%d)", err, MaxFrameBytes+1)
	}
	body, err := ReadFrame(bytes.NewReader(append(binary.LittleEndian.AppendUint32(nil, 16), "not json at all!"...)))
	if err != nil {
		t.Fatal(err)
	}
	var de *DecodeError
	if _, err := DecodeFrame(body); !errors.As(err, &de) {
		t.Errorf("corrupt body: %v, want a DecodeError", err)
	}
	// The limit itself is allowed; one byte more is refused by the writer, which writes nothing.
	if _, err := AppendFrame(nil, make([]byte, MaxFrameBytes)); err != nil {
		t.Errorf("a body of exactly the limit: %v", err)
	}
	var out bytes.Buffer
	big := &Notify{Event: &PaneOutput{PaneID: "p", Data: make([]byte, MaxFrameBytes)}}
	if err := WriteFrame(&out, big); !errors.As(err, &over) || out.Len() != 0 {
		t.Errorf("oversize write: %v and %d bytes written, want OversizeError and none", err, out.Len())
	}
}

func roundTrip(t *testing.T, f Frame) Frame {
	t.Helper()
	body, err := Encode(f)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeFrame(body)
	if err != nil || !reflect.DeepEqual(back, f) {
		t.Errorf("%s did not round-trip: %#v, %v", body, back, err)
	}
	return back
}

func TestEncodeFramedMatchesEncode(t *testing.T) {
	for _, f := range []Frame{
		&Hello{ProtocolVersion: 1, ClientKind: "x"},
		&Notify{Event: &PaneOutput{PaneID: "p", Seq: 3, Data: bytes.Repeat([]byte{0xff, 'a'}, 5000)}},
		&Reply{CorrelationID: 1, Payload: &Themes{Themes: BuiltinThemes()}},
	} {
		body, _ := Encode(f)
		want, _ := AppendFrame(nil, body)
		got, err := EncodeFramed(f)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("EncodeFramed(%s) differs from Encode + AppendFrame: %v", FrameKind(f), err)
		}
	}
	var over *OversizeError
	if _, err := EncodeFramed(&Notify{Event: &PaneOutput{PaneID: "p", Data: make([]byte, MaxFrameBytes)}}); !errors.As(err, &over) {
		t.Errorf("an oversize frame: %v", err)
	}
}
