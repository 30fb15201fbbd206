package client

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/mux/wire"
)

// scriptedPeer answers the handshake on a real socket, then plays back frames for the test.
func scriptedPeer(t *testing.T, after func(nc net.Conn)) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "tmxc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "s")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		nc, err := ln.Accept()
		if err != nil {
			return
		}
		defer nc.Close()
		if f, err := wire.ReadDecoded(nc); err != nil || wire.FrameKind(f) != "Hello" {
			return
		}
		wire.WriteFrame(nc, &wire.HelloAck{ProtocolVersion: 1, DaemonVersion: "x"})
		after(nc)
	}()
	return path
}

func out(seq uint64, pane, data string) wire.Frame {
	return &wire.Notify{Event: &wire.PaneOutput{PaneID: pane, Seq: seq, Data: []byte(data)}}
}

// Frames that come before the snapshot reply are kept back, sorted, and cut to seq > last_seq;
// other panes' output and other events stay pending.
func TestAttachStitchesTheBacklog(t *testing.T) {
	path := scriptedPeer(t, func(nc net.Conn) {
		f, _ := wire.ReadDecoded(nc)
		req := f.(*wire.Request)
		for _, fr := range []wire.Frame{
			out(12, "p", "c"), out(10, "p", "a"), out(11, "other", "x"), out(9, "p", "old"),
			&wire.Notify{Event: &wire.ThemeChanged{ID: "t"}}, out(11, "p", "b"),
			&wire.Reply{CorrelationID: req.CorrelationID, Payload: &wire.AttachSnapshot{History: []byte("hist"), LastSeq: 10, PaneState: wire.PaneState{PaneID: "p", Lifecycle: wire.Lifecycle{Phase: wire.PhaseRunning}}}},
		} {
			wire.WriteFrame(nc, fr)
		}
		io.Copy(io.Discard, nc) // held open until the client closes it
	})
	c, err := Dial(path, "test", 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	a, werr, err := c.Attach("p")
	if err != nil || werr != nil {
		t.Fatal(err, werr)
	}
	var seqs []uint64
	var data string
	for _, o := range a.Backlog {
		seqs = append(seqs, o.Seq)
		data += string(o.Data)
	}
	if len(seqs) != 2 || seqs[0] != 11 || seqs[1] != 12 || data != "bc" {
		t.Errorf("backlog seqs %v data %q, want [11 12] and bc", seqs, data)
	}
	if len(c.Pending) != 2 {
		t.Errorf("pending %+v, want the other pane's output and ThemeChanged", c.Pending)
	}
}

// A client accepts only HelloAck, Reply and Notify from a daemon.
func TestClientRejectsFramesOnlyClientsSend(t *testing.T) {
	path := scriptedPeer(t, func(nc net.Conn) {
		wire.ReadDecoded(nc)
		wire.WriteFrame(nc, &wire.Request{CorrelationID: 1, Op: &wire.OpListPanes{}})
		io.Copy(io.Discard, nc) // held open until the client closes it
	})
	c, err := Dial(path, "test", 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Call(&wire.OpListPanes{}); err == nil || !strings.Contains(err.Error(), "only clients send") {
		t.Errorf("Call: %v, want a direction error", err)
	}
}

func TestDialWithoutDaemon(t *testing.T) {
	if _, err := Dial(filepath.Join(t.TempDir(), "none"), "test", time.Second); err == nil || !strings.Contains(err.Error(), "no daemon") {
		t.Errorf("Dial: %v", err)
	}
}
