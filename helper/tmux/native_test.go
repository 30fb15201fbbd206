package tmux

import (
	"bytes"
	"testing"
)

// tmux opens a client stream with the stream's number; the client answers with the number and a
// zero error, and says nothing to a message too short to name one.
func TestAnswerStream(t *testing.T) {
	// What tmux sends, and the data of the answer (nil: no answer).
	answers := map[string][]byte{
		"\x01\x00\x00\x00":     {1, 0, 0, 0, 0, 0, 0, 0},
		"\x02\x00\x00\x00name": {2, 0, 0, 0, 0, 0, 0, 0},
		"\x01\x00":             nil,
	}
	for data, want := range answers {
		var w bytes.Buffer
		if err := answerStream(&w, imsg{typ: msgWriteOpen, data: []byte(data)}, msgWriteReady); err != nil {
			t.Fatalf("%q: %v", data, err)
		}
		if want == nil {
			if w.Len() != 0 {
				t.Errorf("%q: answered %x", data, w.Bytes())
			}
			continue
		}
		m, n, ok := parseMsg(w.Bytes())
		if !ok || n != w.Len() || m.typ != msgWriteReady || !bytes.Equal(m.data, want) {
			t.Errorf("%q: answered %x (type %d, data %x), want type %d with %x", data, w.Bytes(), m.typ, m.data, msgWriteReady, want)
		}
	}
}
