package wire

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"testing"
)

// FuzzDecodeFrame feeds arbitrary bodies to the decoder: it must never panic, and whatever it
// accepts must encode and decode back to the same value.
func FuzzDecodeFrame(f *testing.F) {
	for _, g := range goldenOps {
		f.Add([]byte(`{"Request":{"correlation_id":1,"op":` + g.json + `}}`))
	}
	for _, g := range goldenPayloads {
		f.Add([]byte(`{"Reply":{"Ok":{"correlation_id":1,"payload":` + g.json + `}}}`))
	}
	for _, g := range goldenErrors {
		f.Add([]byte(`{"Reply":{"Err":{"correlation_id":1,"error":` + g.json + `}}}`))
	}
	f.Add([]byte(`{"Hello":{"protocol_version":1,"client_kind":"cli","escalate":"admin"}}`))
	f.Add([]byte(`{"Notify":{"PaneOutput":{"pane_id":"p1","seq":7,"data":"ABv/"}}}`))
	f.Add([]byte(`[[[[{"a":"\ud83d\ude00"}]]]]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		fr, err := DecodeFrame(body)
		if err != nil {
			return
		}
		again, err := Encode(fr)
		if err != nil {
			t.Fatalf("decoded %q but cannot encode it: %v", body, err)
		}
		back, err := DecodeFrame(again)
		if err != nil || !reflect.DeepEqual(back, fr) {
			t.Fatalf("%q → %s does not decode back: %v", body, again, err)
		}
	})
}

// FuzzReadFrame feeds arbitrary streams to the frame reader: no panic, and no body larger than
// the limit is ever returned (so no allocation follows a hostile length).
func FuzzReadFrame(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0x10, 0x00})
	f.Add(binary.LittleEndian.AppendUint32(nil, MaxFrameBytes+1))
	f.Add(append(binary.LittleEndian.AppendUint32(nil, 2), "{}"...))
	f.Add(append(binary.LittleEndian.AppendUint32(nil, 100), "short"...))
	f.Fuzz(func(t *testing.T, stream []byte) {
		r := bytes.NewReader(stream)
		for i := 0; i < 64; i++ {
			body, err := ReadFrame(r)
			if err != nil {
				return
			}
			if len(body) > MaxFrameBytes {
				t.Fatalf("returned a %d-byte body", len(body))
			}
			_, _ = DecodeFrame(body)
		}
	})
}
