package herdrsock

import (
	"bufio"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// call is a client as herdr's hooks are: one line out, one line back.
func call(t *testing.T, path, line string) (answer string, closed bool) {
	t.Helper()
	c, err := net.DialTimeout("unix", path, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Write([]byte(line + "\n")); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	answer, _ = r.ReadString('\n')
	_, err = r.ReadByte()
	return strings.TrimSpace(answer), err != nil
}

// listening is a listener on a socket in a folder of its own under /tmp, where a socket's path
// stays short enough; the folder goes when the test ends.
func listening(t *testing.T) (path string, ln *Listener) {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", "hs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path = filepath.Join(dir, "taw", "h.sock")
	if ln, err = Listen(path); err != nil {
		t.Fatal(err)
	}
	return path, ln
}

// serving serves ln with a test handler until the returned stop, which says how Serve ended.
func serving(ln *Listener) (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, &Handler{Version: "test"}) }()
	return func() error {
		cancel()
		return <-done
	}
}

func TestServe(t *testing.T) {
	path, ln := listening(t)
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode: %v %v", fi.Mode(), err)
	}
	if _, err := Listen(path); err == nil || !strings.Contains(err.Error(), "already serves") {
		t.Errorf("second listener: %v", err)
	}
	stop := serving(ln)

	tests := []struct{ line, want string }{
		{`{"id":"p","method":"ping","params":{}}`, `{"id":"p","result":{"type":"pong","version":"taw test","protocol":20}}`},
		{`{"id":"m","method":"pane.report_prompt","params":{"pane_id":"%calling","prompt":"x"}}`, `{"id":"m","result":{"type":"ok"}}`},
		{`{"id":"x","method":"nope","params":{}}`, `{"id":"x","error":{"code":"invalid_request","message":"invalid request: unknown method \"nope\""}}`},
		{`{"id":"r","method":"layout.export","params":{"workspace_id":"$1"}}`, `"code":"not_supported"`},
		{`{{{`, `{"id":"","error":{"code":"invalid_request","message":"invalid request: not JSON at byte 2`},
		// No tmux in this test: the read panics in the handler, which answers and goes on.
		{`{"id":"g","method":"pane.get","params":{"pane_id":"%9"}}`, `{"id":"g","error":{"code":"internal_error"`},
	}
	for _, tt := range tests {
		got, closed := call(t, path, tt.line)
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s:\n got %s\nwant %s", tt.line, got, tt.want)
		}
		if !closed {
			t.Errorf("%s: connection left open after the answer", tt.line)
		}
	}
	if err := stop(); err != nil {
		t.Errorf("serve: %v", err)
	}
	ln.Close()
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Errorf("socket left behind: %v", err)
	}
	// A file where the socket goes is not the server's to remove.
	if err := os.WriteFile(path, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(path); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("file at the socket's path: %v", err)
	}
}
