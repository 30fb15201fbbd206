package daemon

import (
	"bytes"
	"encoding/binary"
	"errors"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/mux/client"
	"github.com/taw-tmux/taw/helper/mux/wire"
)

const helloJSON = `{"Hello":{"protocol_version":1,"client_kind":"test"}}`
const ackJSON = `{"HelloAck":{"protocol_version":1,"daemon_version":"0.1.1"}}`

// The handshake and direction rules: a bad start gets nothing at all, not even a HelloAck.
func TestHandshakeRejections(t *testing.T) {
	td := startDaemon(t)
	for _, c := range []struct {
		name   string
		frames []string
		want   []string
	}{
		{"wrong protocol version", []string{`{"Hello":{"protocol_version":100,"client_kind":"attacker"}}`}, nil},
		{"non-Hello first frame", []string{`{"Request":{"correlation_id":1,"op":"ListPanes"}}`}, nil},
		{"Hello with an unknown field", []string{`{"Hello":{"protocol_version":1,"client_kind":"cli","escalate":"admin"}}`}, nil},
		{"wrong direction after the handshake", []string{helloJSON, `{"Notify":{"PaneExited":{"pane_id":"p1","exit_code":0}}}`}, []string{ackJSON}},
		{"second Hello", []string{helloJSON, helloJSON}, []string{ackJSON}},
		{"Reply sent to the daemon", []string{helloJSON, `{"Reply":{"Ok":{"correlation_id":2,"payload":"Sent"}}}`}, []string{ackJSON}},
		{"handshake then ListPanes", []string{helloJSON, `{"Request":{"correlation_id":5,"op":"ListPanes"}}`},
			[]string{ackJSON, `{"Reply":{"Ok":{"correlation_id":5,"payload":{"Panes":[]}}}}`}},
		{"Send with a source field", []string{helloJSON, `{"Request":{"correlation_id":1,"op":{"Send":{"pane_id":"p1","data":"eA==","source":"orchestration_auto"}}}}`}, []string{ackJSON}},
		{"unknown op", []string{helloJSON, `{"Request":{"correlation_id":1,"op":"Future"}}`}, []string{ackJSON}},
		{"bad base64", []string{helloJSON, `{"Request":{"correlation_id":1,"op":{"Send":{"pane_id":"p1","data":"eA="}}}}`}, []string{ackJSON}},
		{"out-of-range integer", []string{helloJSON, `{"Request":{"correlation_id":1,"op":{"Resize":{"pane_id":"p","size":{"rows":70000,"cols":1}}}}}`}, []string{ackJSON}},
		{"not JSON", []string{helloJSON, `not json at all!`}, []string{ackJSON}},
	} {
		t.Run(c.name, func(t *testing.T) {
			nc := td.raw(t)
			for _, f := range c.frames {
				writeRaw(t, nc, f)
			}
			if c.want != nil && strings.Contains(c.name, "ListPanes") {
				nc.(*net.UnixConn).CloseWrite() // a clean close after the request
			}
			got := readAll(t, nc)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("daemon sent %q, want %q", got, c.want)
			}
		})
	}
	// After all of that, the daemon still serves a well-behaved client.
	c := td.dial(t)
	if p := ok(t, c, &wire.OpListPanes{}); len(p.(*wire.Panes).Panes) != 0 {
		t.Errorf("ListPanes = %+v", p)
	}
}

func TestHostileFramesDoNotStopTheDaemon(t *testing.T) {
	td := startDaemon(t)
	good := td.dial(t)
	// An oversize declared length, a truncated prefix, a truncated body, and a clean EOF.
	for _, raw := range [][]byte{
		binary.LittleEndian.AppendUint32(nil, wire.MaxFrameBytes+1),
		{0x10, 0x00},
		append(binary.LittleEndian.AppendUint32(nil, 100), "short"...),
		{},
	} {
		nc := td.raw(t)
		nc.Write(raw)
		nc.(*net.UnixConn).CloseWrite()
		if got := readAll(t, nc); len(got) != 0 {
			t.Errorf("% x: daemon answered %q", raw, got)
		}
	}
	ok(t, good, &wire.OpListThemes{})
}

func TestWrongVersionOverTheClient(t *testing.T) {
	td := startDaemon(t)
	nc := td.raw(t)
	writeRaw(t, nc, `{"Hello":{"protocol_version":8,"client_kind":"attacker"}}`)
	nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := wire.ReadFrame(nc); err == nil {
		t.Fatal("got a frame after a wrong-version Hello")
	}
}

func TestSubscribeUnsubscribeAndAttachRollback(t *testing.T) {
	td := startDaemon(t)
	c := td.dial(t)
	if p := ok(t, c, &wire.OpSubscribe{PaneID: "nope"}); p != wire.AckSubscribed {
		t.Errorf("Subscribe = %v", p)
	}
	conns := td.conns()
	if len(conns) != 1 || !conns[0].subscribed("nope") {
		t.Fatal("Subscribe did not register the pane in the connection's set")
	}
	if p := ok(t, c, &wire.OpUnsubscribe{PaneID: "nope"}); p != wire.AckUnsubscribed || conns[0].subscribed("nope") {
		t.Errorf("Unsubscribe = %v, still subscribed %v", p, conns[0].subscribed("nope"))
	}
	ok(t, c, &wire.OpUnsubscribe{PaneID: "never-subscribed"})
	e := wantErr(t, c, &wire.OpAttach{PaneID: "ghost"}, wire.ErrPaneNotFound)
	if e.PaneID != "ghost" || conns[0].subscribed("ghost") {
		t.Errorf("Attach of an unknown pane: %v, left subscribed %v", e, conns[0].subscribed("ghost"))
	}
	// Two Attaches back to back: the second is rate limited, even though the first failed.
	wantErr(t, c, &wire.OpAttach{PaneID: "ghost"}, wire.ErrBusy)
	if _, werr := attachUntilNotBusy(t, c, "ghost"); werr == nil || werr.Kind != wire.ErrPaneNotFound {
		t.Fatalf("an Attach once the limit has passed: %v, want PaneNotFound", werr)
	}
}

func (td *testDaemon) conns() []*conn {
	td.d.connsMu.RLock()
	defer td.d.connsMu.RUnlock()
	var out []*conn
	for c := range td.d.conns {
		out = append(out, c)
	}
	return out
}

func TestThemes(t *testing.T) {
	td := startDaemon(t)
	a, b := td.dial(t), td.dial(t)
	themes := ok(t, a, &wire.OpListThemes{}).(*wire.Themes)
	if len(themes.Themes) != 9 || themes.Themes[0].ID != "b-dark-ink" {
		t.Fatalf("ListThemes: %d themes", len(themes.Themes))
	}
	if e := wantErr(t, a, &wire.OpSetTheme{ID: "no-such"}, wire.ErrUnsupported); !strings.Contains(e.Message, "no-such") {
		t.Errorf("message %q does not name the id", e.Message)
	}
	// The caller hears ThemeChanged before its own ThemeSet; the other connection hears it unasked.
	if p := ok(t, a, &wire.OpSetTheme{ID: "b-light-paper"}); p != wire.AckThemeSet {
		t.Fatalf("SetTheme = %v", p)
	}
	if len(a.Pending) != 1 || a.Pending[0].(*wire.ThemeChanged).ID != "b-light-paper" {
		t.Errorf("caller's notifications before ThemeSet: %+v", a.Pending)
	}
	b.SetDeadline(time.Now().Add(5 * time.Second))
	ev, _, err := b.Next()
	if tc, isTC := ev.(*wire.ThemeChanged); err != nil || !isTC || tc.ID != "b-light-paper" {
		t.Errorf("other connection got %+v, %v", ev, err)
	}
}

func TestPinAndUnpinWithoutTrustStore(t *testing.T) {
	td := startDaemon(t)
	c := td.dial(t)
	wantErr(t, c, &wire.OpPinExecutable{Path: "/bin/sh"}, wire.ErrUnsupported)
	wantErr(t, c, &wire.OpUnpinExecutable{Path: "/bin/sh"}, wire.ErrUnsupported)
}

func TestKillServerAcksThenStops(t *testing.T) {
	td := startDaemon(t)
	other := td.dial(t)
	ok(t, other, &wire.OpSpawn{Request: shellSpawn("p1", "sleep 300")})
	pid := *ok(t, other, &wire.OpListPanes{}).(*wire.Panes).Panes[0].PID
	nc := td.raw(t)
	writeRaw(t, nc, helloJSON)
	writeRaw(t, nc, `{"Request":{"correlation_id":9,"op":"KillServer"}}`)
	// Never read: the daemon may already have closed the connection, so the write may fail.
	if framed, err := wire.AppendFrame(nil, []byte(`{"Request":{"correlation_id":10,"op":"ListPanes"}}`)); err == nil {
		_, _ = nc.Write(framed)
	}
	got := readAll(t, nc)
	want := []string{ackJSON, `{"Reply":{"Ok":{"correlation_id":9,"payload":"ServerKillScheduled"}}}`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q, want %q", got, want)
	}
	select {
	case err := <-td.served:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the daemon did not stop")
	}
	if _, err := client.Dial(td.socket, "test", time.Second); !errors.Is(err, client.ErrNoDaemon) {
		t.Errorf("connecting after KillServer: %v, want no daemon", err)
	}
	if _, err := os.Stat(td.socket); !os.IsNotExist(err) {
		t.Errorf("socket still there: %v", err)
	}
	if _, err := td.tmux.Output(t.Context(), "list-sessions"); err == nil {
		t.Error("the daemon's tmux server is still running")
	}
	eventually(t, "the pane's process to die", func() bool { _, err := os.Stat("/proc/" + itoa(int(pid))); return err != nil })
	if _, err := td.d.spawn(t.Context(), shellSpawn("late", "true"), false); err == nil || err.Kind != wire.ErrSupervisorError {
		t.Errorf("Spawn during shutdown: %v, want SupervisorError", err)
	}
	other.SetDeadline(time.Now().Add(5 * time.Second))
	if _, _, err := other.Next(); err == nil {
		t.Error("the other connection was not closed")
	}
}

func itoa(n int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(n)) }

func fmtInt(n int) string {
	var b []byte
	if n == 0 {
		return "0"
	}
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

func TestQueueCapCutsTheConnection(t *testing.T) {
	a, b := net.Pipe()
	defer b.Close()
	q := newOutQueue(a)
	chunk := bytes.Repeat([]byte("x"), 1<<20) // the cost is what counts, not the bytes
	n := 0
	for q.push(chunk, len(chunk)+64) {
		n++
	}
	if n != 7 || !q.isDead() {
		t.Fatalf("queued %d MiB chunks before the cut, dead=%v; want 7 and dead", n, q.isDead())
	}
	if q.push([]byte("\x02\x00\x00\x00{}"), 10) {
		t.Error("a dead queue took another frame")
	}
	if _, err := a.Write([]byte("x")); err == nil {
		t.Error("the cut connection is still open")
	}
}

func TestReplyCostScalesWithPayload(t *testing.T) {
	big := &wire.Reply{Payload: &wire.Captured{Result: wire.CaptureResult{Data: make([]byte, 30000)}}}
	if c := replyCost(big); c != 40000+128 {
		t.Errorf("Captured of 30000 bytes costs %d, want %d", c, 40000+128)
	}
	if c := replyCost(&wire.Reply{Payload: wire.AckSent}); c != 256 {
		t.Errorf("Sent costs %d", c)
	}
	if c := replyCost(&wire.Reply{Error: &wire.Error{Kind: wire.ErrBusy}}); c != 256 {
		t.Errorf("Err costs %d", c)
	}
}

func TestSocketIsPrivate(t *testing.T) {
	td := startDaemon(t)
	st, err := os.Stat(td.socket)
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := os.Stat(strings.TrimSuffix(td.socket, "/mux.sock"))
	if st.Mode().Perm() != 0o600 || dir.Mode().Perm() != 0o700 {
		t.Errorf("socket %v, directory %v; want 0600 and 0700", st.Mode().Perm(), dir.Mode().Perm())
	}
	if _, err := Listen(td.socket, true); !errors.Is(err, ErrAlreadyRunning) {
		t.Errorf("a second daemon on the same socket: %v, want already running", err)
	}
}

// A peer whose identity cannot be read is dropped before anything is read or written.
func TestNoIdentityIsRejectedBeforeHandshake(t *testing.T) {
	td := startDaemon(t)
	ours, theirs := net.Pipe()
	done := make(chan struct{})
	go func() { td.d.serveConn(ours); close(done) }()
	theirs.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := theirs.Read(make([]byte, 1)); n != 0 || err == nil {
		t.Errorf("read %d bytes, %v; want the connection closed with nothing sent", n, err)
	}
	<-done
	if !strings.Contains(td.log.String(), "outcome=RejectedNoIdentity") {
		t.Errorf("log: %s", td.log.String())
	}
	if len(td.conns()) != 0 {
		t.Error("the unidentified connection was registered")
	}
}

// Subscribing and unsubscribing from one connection while another attaches does not deadlock,
// and failed Attaches leave nothing behind.
func TestAttachAlongsideSubscriptionChurn(t *testing.T) {
	td := startDaemon(t)
	churn, att := td.dial(t), td.dial(t)
	ok(t, churn, &wire.OpSpawn{Request: shellSpawn("busy", "while :; do echo tick; sleep 0.01; done")})
	eventually(t, "the first output", func() bool {
		r := ok(t, att, &wire.OpCapture{Request: wire.CaptureRequest{PaneID: "busy", Range: wire.CaptureRange{Kind: wire.RangeAll}}})
		return len(r.(*wire.Captured).Result.Data) > 0
	})
	stop := make(chan struct{})
	churned := make(chan error, 1)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				churned <- nil
				return
			default:
			}
			var op wire.Op = &wire.OpSubscribe{PaneID: "busy"}
			if i%2 == 1 {
				op = &wire.OpUnsubscribe{PaneID: "busy"}
			}
			churn.SetDeadline(time.Now().Add(10 * time.Second))
			if _, err := churn.Call(op); err != nil {
				churned <- err
				return
			}
			churn.Pending = nil
		}
	}()
	for i := 0; i < 3; i++ {
		a, werr := attachUntilNotBusy(t, att, "busy")
		if werr != nil || a.Snapshot.LastSeq == 0 {
			t.Fatalf("Attach %d: %v", i, werr)
		}
		if _, werr, _ := att.Attach("ghost"); werr == nil || werr.Kind != wire.ErrBusy {
			t.Fatalf("an Attach right after another: %v, want Busy", werr)
		}
		if _, werr := attachUntilNotBusy(t, att, "ghost"); werr == nil || werr.Kind != wire.ErrPaneNotFound {
			t.Fatalf("Attach of an unknown pane: %v", werr)
		}
	}
	close(stop)
	if err := <-churned; err != nil {
		t.Fatalf("churn: %v", err)
	}
	for _, c := range td.conns() {
		if c.subscribed("ghost") {
			t.Error("a failed Attach left a subscription")
		}
	}
}
