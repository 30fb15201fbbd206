package daemon

import (
	"bytes"
	"context"
	"fmt"
	"github.com/taw-tmux/taw/tests/testrun"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/mux/client"
	"github.com/taw-tmux/taw/helper/mux/tmuxhost"
	"github.com/taw-tmux/taw/helper/mux/wire"
	"github.com/taw-tmux/taw/helper/tmux"
)

// lockedBuffer is a log sink the test can read while the daemon writes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

type testDaemon struct {
	d      *Daemon
	host   *tmuxhost.Host
	socket string
	tmux   *tmux.Client
	log    *lockedBuffer
	served chan error
}

// TestMain doubles as the output relay the daemon's panes run (see tmuxhost.RelayFD).
func TestMain(m *testing.M) {
	if os.Getenv("TAW_TEST_RELAY") == "1" {
		if err := tmuxhost.RelayFD(os.Args[1], os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(testrun.Run(m))
}

// startDaemon runs a real daemon on a real socket, with panes on a tmux server of its own.
func startDaemon(t testing.TB) *testDaemon {
	t.Helper()
	tmuxPath, err := exec.LookPath("tmux")
	if err != nil {
		t.Fatal("tmux is not installed: these tests need a real tmux server")
	}
	dir, err := os.MkdirTemp("", "tmxd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMUX_TMPDIR=" + dir, "TERM=screen", "LANG=C.UTF-8", "SHELL=/bin/sh"}
	tc := &tmux.Client{Global: []string{"-L", "d", "-f", "/dev/null"}, Env: env}
	host, err := tmuxhost.Start(context.Background(), tmuxhost.Config{Tmux: tc, Own: true, TmuxPath: tmuxPath, RunDir: filepath.Join(dir, "run"),
		Relay: []string{"/usr/bin/env", "TAW_TEST_RELAY=1", os.Args[0]}})
	if err != nil {
		t.Fatal(err)
	}
	socket := filepath.Join(dir, "s", "mux.sock")
	ln, err := Listen(socket, true)
	if err != nil {
		t.Fatal(err)
	}
	log := &lockedBuffer{}
	td := &testDaemon{host: host, d: New(Config{Host: host, Log: log, WorkDir: dir}), socket: socket, tmux: tc, log: log, served: make(chan error, 1)}
	go func() { td.served <- td.d.Serve(ln) }()
	t.Cleanup(func() {
		td.d.Shutdown()
		_, _ = tc.Run(context.Background(), tmux.Cmd{"kill-server"})
		if t.Failed() {
			t.Logf("daemon log:\n%s", log.String())
		}
	})
	return td
}

func (td *testDaemon) dial(t *testing.T) *client.Conn { return td.dialTB(t) }

func (td *testDaemon) dialTB(t testing.TB) *client.Conn {
	t.Helper()
	c, err := client.Dial(td.socket, "test", 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// raw is a connection that has not shaken hands.
func (td *testDaemon) raw(t *testing.T) net.Conn {
	t.Helper()
	nc, err := net.Dial("unix", td.socket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return nc
}

func writeRaw(t *testing.T, nc net.Conn, body string) {
	t.Helper()
	framed, err := wire.AppendFrame(nil, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nc.Write(framed); err != nil {
		t.Fatal(err)
	}
}

// readAll reads frames until the daemon closes the connection, failing if it does not within 5s.
func readAll(t *testing.T, nc net.Conn) []string {
	t.Helper()
	nc.SetReadDeadline(time.Now().Add(20 * time.Second))
	var got []string
	for {
		body, err := wire.ReadFrame(nc)
		if err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Fatalf("the daemon did not close the connection within 20s; frames so far: %v", got)
			}
			return got
		}
		got = append(got, string(body))
	}
}

func call(t *testing.T, c *client.Conn, op wire.Op) *wire.Reply {
	t.Helper()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	r, err := c.Call(op)
	if err != nil {
		t.Fatalf("%s: %v", wire.OpName(op), err)
	}
	return r
}

func ok(t *testing.T, c *client.Conn, op wire.Op) wire.Payload {
	t.Helper()
	r := call(t, c, op)
	if r.Error != nil {
		t.Fatalf("%s: %v", wire.OpName(op), r.Error)
	}
	return r.Payload
}

func wantErr(t *testing.T, c *client.Conn, op wire.Op, kind wire.ErrorKind) *wire.Error {
	t.Helper()
	r := call(t, c, op)
	if r.Error == nil || r.Error.Kind != kind {
		t.Fatalf("%s: reply %+v / %v, want error %s", wire.OpName(op), r.Payload, r.Error, kind)
	}
	return r.Error
}

func shellSpawn(id, script string) wire.SpawnRequest {
	return wire.SpawnRequest{
		PaneID: id, Command: wire.CommandSpec{Program: "/bin/sh", Args: []string{"-c", script}, Env: [][2]string{}},
		Size: wire.PaneSize{Rows: 24, Cols: 80}, AdapterID: "shell", CreatedAt: 1,
	}
}

// stream follows one pane's output, checking that seq grows by exactly one each chunk.
type stream struct {
	t       *testing.T
	pane    string
	lastSeq uint64
	data    []byte
	exited  *wire.PaneExited
	others  []wire.Event
}

func (s *stream) take(ev wire.Event) {
	switch ev := ev.(type) {
	case *wire.PaneOutput:
		if ev.PaneID != s.pane {
			s.others = append(s.others, ev)
			return
		}
		if ev.Seq != s.lastSeq+1 {
			s.t.Fatalf("pane %s: seq %d after %d, want %d", s.pane, ev.Seq, s.lastSeq, s.lastSeq+1)
		}
		s.lastSeq = ev.Seq
		s.data = append(s.data, ev.Data...)
	case *wire.PaneExited:
		if ev.PaneID == s.pane {
			s.exited = ev
			return
		}
		s.others = append(s.others, ev)
	default:
		s.others = append(s.others, ev)
	}
}

// until reads notifications until done says so, or fails after the timeout.
func (s *stream) until(c *client.Conn, what string, timeout time.Duration, done func() bool) {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for !done() {
		c.SetDeadline(deadline)
		ev, _, err := c.Next()
		if err != nil {
			s.t.Fatalf("waiting for %s: %v; output so far %q", what, err, s.data)
		}
		if ev != nil {
			s.take(ev)
		}
	}
	c.SetDeadline(time.Time{})
}

func (s *stream) contains(marker string) func() bool {
	return func() bool { return strings.Contains(string(s.data), marker) }
}

func tmuxOut(t *testing.T, td *testDaemon, args ...string) string {
	t.Helper()
	out, err := td.tmux.Output(context.Background(), args...)
	if err != nil {
		t.Fatalf("tmux %v: %v", args, err)
	}
	return out
}

func eventually(t *testing.T, what string, f func() bool) {
	t.Helper()
	testrun.Eventually(t, what, 30*time.Second, f)
}

// waitSweeps waits until n more exit sweeps have run.
func (td *testDaemon) waitSweeps(t *testing.T, n uint64) {
	t.Helper()
	target := td.d.sweeps.Load() + n
	eventually(t, fmt.Sprintf("%d exit sweeps", n), func() bool { return td.d.sweeps.Load() >= target })
}

// attachUntilNotBusy repeats an Attach while the rate limit answers Busy (the limit ends by
// itself; the wait is for that) and returns the first other answer.
func attachUntilNotBusy(t *testing.T, c *client.Conn, id string) (*client.Attached, *wire.Error) {
	t.Helper()
	var a *client.Attached
	var werr *wire.Error
	eventually(t, "an Attach the rate limit lets through", func() bool {
		var err error
		a, werr, err = c.Attach(id)
		if err != nil {
			t.Fatalf("Attach %s: %v", id, err)
		}
		return werr == nil || werr.Kind != wire.ErrBusy
	})
	return a, werr
}
