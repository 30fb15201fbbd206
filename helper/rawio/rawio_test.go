package rawio

import (
	"bytes"
	"io"
	"os"
	"syscall"
	"testing"
)

// pipe is a pipe and the raw side of its read end.
func pipe(t *testing.T) (*os.File, *os.File, syscall.RawConn) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	rc, err := r.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	return r, w, rc
}

func TestReaderAndTryWriteCarryEveryByte(t *testing.T) {
	_, w, rc := pipe(t)
	wc, err := w.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	want := make([]byte, 300*1024) // more than a pipe holds: TryWrite takes only part
	for i := range want {
		want[i] = byte(i * 7)
	}
	done := make(chan []byte)
	go func() {
		got, err := io.ReadAll(NewReader(rc))
		if err != nil {
			t.Error(err)
		}
		done <- got
	}()
	rest := want
	for len(rest) > 0 {
		n := TryWrite(wc, rest)
		if n == 0 {
			if _, err := w.Write(rest[:1]); err != nil { // waits for room
				t.Fatal(err)
			}
			n = 1
		}
		rest = rest[n:]
	}
	w.Close()
	if got := <-done; !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes, not the %d written", len(got), len(want))
	}
}

func TestReaderEndsWhenClosed(t *testing.T) {
	r, _, rc := pipe(t)
	done := make(chan error)
	go func() {
		_, err := NewReader(rc).Read(make([]byte, 16))
		done <- err
	}()
	r.Close()
	if err := <-done; err == nil {
		t.Fatal("a read of a closed pipe returned no error")
	}
}

func TestWriterWaitsForRoomAndCarriesEveryByte(t *testing.T) {
	r, w, _ := pipe(t)
	want := make([]byte, 300*1024) // more than a pipe holds: Write must wait for the reader
	for i := range want {
		want[i] = byte(i * 13)
	}
	done := make(chan []byte)
	go func() {
		got, err := io.ReadAll(r)
		if err != nil {
			t.Error(err)
		}
		done <- got
	}()
	wr := WriterOf(w)
	if _, raw := wr.(*Writer); !raw {
		t.Fatalf("WriterOf(*os.File) is %T, want the raw writer", wr)
	}
	if n, err := wr.Write(want); err != nil || n != len(want) {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(want))
	}
	w.Close()
	if got := <-done; !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes, not the %d written", len(got), len(want))
	}
}

func TestWriterOfAPlainWriterIsItself(t *testing.T) {
	var b bytes.Buffer
	if WriterOf(&b) != io.Writer(&b) {
		t.Fatal("WriterOf wrapped a writer that has no descriptor")
	}
}
