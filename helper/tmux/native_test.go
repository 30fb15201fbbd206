package tmux

import (
	"bytes"
	"testing"
)

// tmux opens a client stream with the stream's number; the client answers with the number and a
// zero error, and says nothing to a message too short to name one.
func TestAnswerStream(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want []byte // the answer's data; nil: no answer
	}{
		{"stdout", []byte{1, 0, 0, 0}, []byte{1, 0, 0, 0, 0, 0, 0, 0}},
		{"a stream with its name after it", []byte{2, 0, 0, 0, 'x', 'y'}, []byte{2, 0, 0, 0, 0, 0, 0, 0}},
		{"too short", []byte{1, 0}, nil},
	}
	for _, tt := range tests {
		var w bytes.Buffer
		if err := answerStream(&w, imsg{typ: msgWriteOpen, data: tt.data}, msgWriteReady); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if tt.want == nil {
			if w.Len() != 0 {
				t.Errorf("%s: answered %x", tt.name, w.Bytes())
			}
			continue
		}
		m, n, ok := parseMsg(w.Bytes())
		if !ok || n != w.Len() || m.typ != msgWriteReady || !bytes.Equal(m.data, tt.want) {
			t.Errorf("%s: answered %x (type %d, data %x), want type %d with %x", tt.name, w.Bytes(), m.typ, m.data, msgWriteReady, tt.want)
		}
	}
}
