package tmux

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// A server that takes the connection and never answers costs the call its limit, not a hang.
func TestNativeRunGivesUpOnASilentServer(t *testing.T) {
	socket, l := listenUnix(t, "silent")
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	start := time.Now()
	_, _, _, err := nativeRun(context.Background(), socket, []string{"list-panes"}, []string{"TERM=screen"}, 200*time.Millisecond)
	var te *Error
	if !errors.As(err, &te) || te.Code != CodeTmuxError || !strings.Contains(te.Stderr, "did not answer within 200ms") {
		t.Fatalf("err = %v, want tmux did not answer within 200ms", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("gave up after %s", took)
	}

	// A context's deadline, when it comes first, is the limit.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, _, _, err = nativeRun(ctx, socket, []string{"list-panes"}, []string{"TERM=screen"}, time.Hour)
	if !errors.As(err, &te) || te.Code != CodeTmuxError {
		t.Fatalf("err = %v, want a tmux error for the deadline", err)
	}
}

// A server that keeps the connection busy with a byte now and then still cannot hold the call
// past its limit.
func TestNativeRunGivesUpOnADribblingServer(t *testing.T) {
	socket, l := listenUnix(t, "dribble")
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				// A header that never completes: a length far past what is sent.
				if _, err := c.Write([]byte{0}); err != nil {
					return
				}
			}
		}
	}()
	start := time.Now()
	_, _, _, err := nativeRun(context.Background(), socket, []string{"list-panes"}, []string{"TERM=screen"}, 200*time.Millisecond)
	var te *Error
	if !errors.As(err, &te) || te.Code != CodeTmuxError {
		t.Fatalf("err = %v, want tmux did not answer", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("gave up after %s, the limit is 200ms", took)
	}
}

// listenUnix listens on a fresh unix socket, closed when the test ends.
func listenUnix(t *testing.T, name string) (string, net.Listener) {
	t.Helper()
	socket := filepath.Join(t.TempDir(), name)
	l, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return socket, l
}

// The whole call goes in one write with no descriptors: the server reads it at once, and every
// read costs tmux a count of its open files.
func TestNativeRunSendsOneWrite(t *testing.T) {
	socket, l := listenUnix(t, "onewrite")
	type first struct {
		data []byte
		oobn int
		err  error
	}
	got := make(chan first, 1)
	go func() {
		c, err := l.Accept()
		if err != nil {
			got <- first{err: err}
			return
		}
		defer c.Close()
		buf, oob := make([]byte, 1<<16), make([]byte, 256)
		n, oobn, _, _, err := c.(*net.UnixConn).ReadMsgUnix(buf, oob)
		got <- first{data: buf[:n], oobn: oobn, err: err}
		var exit [imsgHeaderSize + 4]byte
		putHeader(exit[:], msgExit, 4, 0)
		_, _ = c.Write(exit[:])
	}()
	if _, _, status, err := nativeRun(context.Background(), socket, []string{"list-panes"}, []string{"TERM=screen", "A=b"}, 5*time.Second); err != nil || status != 0 {
		t.Fatalf("nativeRun = status %d, %v", status, err)
	}
	f := <-got
	if f.err != nil {
		t.Fatal(f.err)
	}
	if f.oobn != 0 {
		t.Errorf("the call carried %d bytes of descriptors, want none", f.oobn)
	}
	var types []uint32
	for b := f.data; ; {
		m, n, ok := parseMsg(b)
		if !ok {
			break
		}
		types, b = append(types, m.typ), b[n:]
	}
	if len(types) == 0 || types[len(types)-1] != msgCommand {
		t.Errorf("the first read held messages %v, want the whole call up to the command", types)
	}
}

// A command that reads the client's stdin finds it empty, as tmux's own client with /dev/null
// for stdin does: the buffer is left as it was, and the call ends.
func TestNativeRunStdinIsEmpty(t *testing.T) {
	c := testServer(t)
	ctx := context.Background()
	if _, err := c.Run(ctx, Cmd{"set-buffer", "-b", "taw-test", "before"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(ctx, Cmd{"load-buffer", "-b", "taw-test", "-"}); err != nil {
		t.Fatalf("load-buffer from stdin: %v", err)
	}
	if out, err := c.Run(ctx, Cmd{"show-buffer", "-b", "taw-test"}); err != nil || out != "before" {
		t.Errorf("after loading an empty stdin the buffer holds %q (%v), want it as it was", out, err)
	}
}

// A call that fails once its command went to the server is tmux's failure to report, never one
// to run again through the tmux binary: the server may have run the commands already, and
// running them twice makes every window twice ("index 1 in use").
func TestAFailureAfterSendingRunsNothingTwice(t *testing.T) {
	bin := t.TempDir()
	ran := filepath.Join(bin, "ran")
	fake := "#!/bin/sh\necho \"$@\" >>" + ran + "\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "tmux"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	socket, l := listenUnix(t, "half")
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		// Read the command, open the client's stdout as a command's output does, and go before
		// the answer, as a server that died running it would.
		b := make([]byte, 65536)
		_, _ = c.Read(b)
		_, _ = c.Write(appendMsg(nil, msgWriteOpen, []byte{1, 0, 0, 0, 1, 0, 0, 0}))
		c.Close()
	}()
	c := &Client{Global: []string{"-S", socket}, Env: []string{"TERM=screen"}, Timeout: 5 * time.Second}
	if _, err := c.Run(context.Background(), Cmd{"new-window", "-d"}); err == nil {
		t.Fatal("the call succeeded")
	}
	if b, err := os.ReadFile(ran); err == nil {
		t.Fatalf("the tmux binary ran the command again: %s", b)
	}
}
