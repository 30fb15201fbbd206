package daemon

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/mux/wire"
)

func TestSpawnSendCaptureResizeKill(t *testing.T) {
	td := startDaemon(t)
	c := td.dial(t)
	if p := ok(t, c, &wire.OpListPanes{}).(*wire.Panes); len(p.Panes) != 0 {
		t.Fatalf("a new daemon lists %d panes", len(p.Panes))
	}
	dir := t.TempDir()
	req := wire.SpawnRequest{
		PaneID: "p1", Command: wire.CommandSpec{Program: "/bin/sh", Args: []string{}, Cwd: &dir, Env: [][2]string{{"MARK", "xyz"}}},
		Size: wire.PaneSize{Rows: 24, Cols: 80}, AdapterID: "shell", CreatedAt: 1700000000000,
	}
	ok(t, c, &wire.OpSubscribe{PaneID: "p1"})
	if p := ok(t, c, &wire.OpSpawn{Request: req}).(*wire.Spawned); p.PaneID != "p1" {
		t.Fatalf("Spawned %q", p.PaneID)
	}
	wantErr(t, c, &wire.OpSpawn{Request: req}, wire.ErrSpawnFailed)
	rel := req
	rel.PaneID, rel.Command.Program = "p2", "sh"
	if e := wantErr(t, c, &wire.OpSpawn{Request: rel}, wire.ErrNonAbsoluteProgram); e.Program != "sh" {
		t.Errorf("NonAbsoluteProgram names %q", e.Program)
	}
	rel.Command.Program = "/no/such/program"
	wantErr(t, c, &wire.OpSpawn{Request: rel}, wire.ErrSpawnFailed)

	s := &stream{t: t, pane: "p1"}
	ok(t, c, &wire.OpSend{PaneID: "p1", Data: []byte("echo \"MARK:$MARK:$(pwd)\"\r")})
	// The shell's next prompt too: drawn after the capture below, it would make the two captures
	// differ.
	s.until(c, "the echo and the prompt after it", 30*time.Second, func() bool {
		_, after, ok := strings.Cut(string(s.data), "MARK:xyz:"+dir+"\r\n")
		return ok && (strings.HasSuffix(after, "# ") || strings.HasSuffix(after, "$ "))
	})
	capt := ok(t, c, &wire.OpCapture{Request: wire.CaptureRequest{PaneID: "p1", Range: wire.CaptureRange{Kind: wire.RangeAll}}}).(*wire.Captured)
	if !strings.Contains(string(capt.Result.Data), "MARK:xyz:"+dir) || capt.Result.Truncated || !capt.Result.EffectivelyFull {
		t.Errorf("Capture All: %+v", capt.Result)
	}
	last := ok(t, c, &wire.OpCapture{Request: wire.CaptureRequest{PaneID: "p1", Range: wire.CaptureRange{Kind: wire.RangeLastBytes, LastBytes: 1 << 30}}}).(*wire.Captured)
	if !last.Result.Truncated || len(last.Result.Data) == 0 {
		t.Errorf("Capture LastBytes(1 GiB): %+v", last.Result)
	}
	lines := ok(t, c, &wire.OpCapture{Request: wire.CaptureRequest{PaneID: "p1", Range: wire.CaptureRange{Kind: wire.RangeLineRange, StartAbs: 0, EndAbs: capt.Result.LastAbsLine}}}).(*wire.Captured)
	if !bytes.Equal(lines.Result.Data, capt.Result.Data) {
		t.Errorf("lines 0..%d = %q, want all of %q", capt.Result.LastAbsLine, lines.Result.Data, capt.Result.Data)
	}

	st := ok(t, c, &wire.OpListPanes{}).(*wire.Panes).Panes
	if len(st) != 1 || st[0].PaneID != "p1" || st[0].PID == nil || st[0].Lifecycle.Phase != wire.PhaseRunning ||
		st[0].WorkingDir != dir || st[0].Size != req.Size || st[0].CreatedAt != req.CreatedAt || st[0].Scrollback.TotalBytes == 0 {
		t.Fatalf("ListPanes: %+v", st)
	}
	pid := int(*st[0].PID)

	ok(t, c, &wire.OpResize{PaneID: "p1", Size: wire.PaneSize{Rows: 10, Cols: 50}})
	paneID := td.d.lookup("p1").hp.PaneID
	if got := tmuxOut(t, td, "display-message", "-p", "-t", paneID, "#{pane_width}x#{pane_height}"); got != "50x10" {
		t.Errorf("tmux pane is %s after Resize 10x50", got)
	}
	ok(t, c, &wire.OpSend{PaneID: "p1", Data: []byte("stty size\r")})
	s.until(c, "stty size", 30*time.Second, s.contains("10 50"))
	if sz := ok(t, c, &wire.OpListPanes{}).(*wire.Panes).Panes[0].Size; sz != (wire.PaneSize{Rows: 10, Cols: 50}) {
		t.Errorf("ListPanes size %+v after Resize", sz)
	}
	wantErr(t, c, &wire.OpResize{PaneID: "nope", Size: wire.PaneSize{Rows: 1, Cols: 1}}, wire.ErrPaneNotFound)
	wantErr(t, c, &wire.OpSend{PaneID: "nope", Data: []byte("x")}, wire.ErrPaneNotFound)
	wantErr(t, c, &wire.OpCapture{Request: wire.CaptureRequest{PaneID: "nope"}}, wire.ErrPaneNotFound)

	// A child that left the terminal's process group must die with the tree.
	ok(t, c, &wire.OpSend{PaneID: "p1", Data: []byte("trap '' HUP; setsid sleep 300 & echo BG:$!\r")})
	bgPID := regexp.MustCompile(`BG:([0-9]+)\r\n`)
	s.until(c, "the background pid", 30*time.Second, func() bool { return bgPID.Match(s.data) })
	bg, _ := strconv.Atoi(string(bgPID.FindSubmatch(s.data)[1]))
	if p := ok(t, c, &wire.OpKillTree{PaneID: "p1"}); p != wire.AckKilled {
		t.Fatalf("KillTree = %v", p)
	}
	if p := ok(t, c, &wire.OpListPanes{}).(*wire.Panes); len(p.Panes) != 0 {
		t.Errorf("ListPanes after KillTree: %+v", p.Panes)
	}
	eventually(t, "the pane's processes to end", func() bool { return !alive(pid) && (bg == 0 || !alive(bg)) })
	if bg == 0 {
		t.Error("the background child's pid was not printed")
	}
	wantErr(t, c, &wire.OpKillTree{PaneID: "p1"}, wire.ErrPaneNotFound)
	// No PaneExited follows a KillTree: two sweeps later, and a reply after them, none came.
	td.waitSweeps(t, 2)
	ok(t, c, &wire.OpListThemes{})
	for _, ev := range c.Pending {
		if _, exited := ev.(*wire.PaneExited); exited {
			t.Errorf("PaneExited after KillTree: %+v", ev)
		}
	}
}

func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err == nil && !strings.Contains(string(stat), ") Z ")
}

func TestPaneExitedAndRespawn(t *testing.T) {
	td := startDaemon(t)
	c, quiet := td.dial(t), td.dial(t)
	ok(t, c, &wire.OpSubscribe{PaneID: "p2"})
	ok(t, c, &wire.OpSpawn{Request: shellSpawn("p2", "printf first; exit 7")})
	s := &stream{t: t, pane: "p2"}
	s.until(c, "the exit", 30*time.Second, func() bool { return s.exited != nil })
	if string(s.data) != "first" || s.exited.ExitCode == nil || *s.exited.ExitCode != 7 {
		t.Fatalf("output %q, exit %+v; want first and 7", s.data, s.exited)
	}
	st := ok(t, c, &wire.OpListPanes{}).(*wire.Panes).Panes
	if len(st) != 1 || st[0].Lifecycle != (wire.Lifecycle{Phase: wire.PhaseExited, ExitCode: 7}) || st[0].ExitCode == nil || *st[0].ExitCode != 7 {
		t.Fatalf("an exited pane is listed as %+v", st)
	}
	wantErr(t, c, &wire.OpSend{PaneID: "p2", Data: []byte("x")}, wire.ErrPtyError)
	// Capture still reads what the exited pane wrote.
	if got := ok(t, c, &wire.OpCapture{Request: wire.CaptureRequest{PaneID: "p2", Range: wire.CaptureRange{Kind: wire.RangeAll}}}).(*wire.Captured); string(got.Result.Data) != "first" {
		t.Errorf("Capture of the exited pane: %q", got.Result.Data)
	}

	// A new generation: seq starts again at 1, the subscription carries over, and its exit is told.
	ok(t, c, &wire.OpRespawn{Request: shellSpawn("p2", "printf second; exit 3")})
	s = &stream{t: t, pane: "p2"}
	s.until(c, "the second exit", 30*time.Second, func() bool { return s.exited != nil })
	if string(s.data) != "second" || s.exited.ExitCode == nil || *s.exited.ExitCode != 3 {
		t.Fatalf("second generation: %q, exit %+v", s.data, s.exited)
	}
	// Respawn of an unknown id behaves as Spawn.
	ok(t, c, &wire.OpRespawn{Request: shellSpawn("fresh", "sleep 300")})
	// The connection that never subscribed heard none of it.
	ok(t, quiet, &wire.OpListThemes{})
	if len(quiet.Pending) != 0 {
		t.Errorf("an unsubscribed connection got %+v", quiet.Pending)
	}
}

// The stitching rule, end to end: a client that attaches mid-stream rebuilds exactly the bytes a
// client subscribed from the start saw, with nothing lost and nothing doubled.
func TestAttachMidStreamRebuildsExactly(t *testing.T) {
	td := startDaemon(t)
	full, late := td.dial(t), td.dial(t)
	ok(t, full, &wire.OpSubscribe{PaneID: "p3"})
	script := `i=0; while [ $i -lt 300 ]; do echo "line $i"; i=$((i+1)); sleep 0.002; done; printf '\033[?1049h\033[?25lEND'; sleep 300`
	ok(t, full, &wire.OpSpawn{Request: shellSpawn("p3", script)})
	ref := &stream{t: t, pane: "p3"}
	ref.until(full, "some output", 10*time.Second, ref.contains("line 40\r\n"))

	att, werr, err := late.Attach("p3")
	if err != nil || werr != nil {
		t.Fatalf("Attach: %v %v", err, werr)
	}
	if att.Snapshot.LastSeq == 0 || att.Snapshot.PaneState.PaneID != "p3" {
		t.Fatalf("snapshot: last_seq %d, state %+v", att.Snapshot.LastSeq, att.Snapshot.PaneState)
	}
	rebuilt := &stream{t: t, pane: "p3", lastSeq: att.Snapshot.LastSeq, data: append([]byte(nil), att.Snapshot.History...)}
	for _, o := range att.Backlog {
		rebuilt.take(o)
	}
	rebuilt.until(late, "END on the late client", 40*time.Second, rebuilt.contains("END"))
	ref.until(full, "END on the full client", 40*time.Second, ref.contains("END"))
	if !bytes.Equal(rebuilt.data, ref.data) {
		t.Fatalf("rebuilt stream differs:\n got %q\nwant %q", rebuilt.data, ref.data)
	}
	capt := ok(t, full, &wire.OpCapture{Request: wire.CaptureRequest{PaneID: "p3", Range: wire.CaptureRange{Kind: wire.RangeAll}, Ansi: true}}).(*wire.Captured)
	if !bytes.Equal(capt.Result.Data, ref.data) {
		t.Errorf("Capture All differs from the stream")
	}
	pid := *ok(t, full, &wire.OpListPanes{}).(*wire.Panes).Panes[0].PID

	// Dropping the client leaves the pane; a fresh Attach has the modes and the whole history.
	late.Close()
	again := td.dial(t)
	att2, werr, err := again.Attach("p3")
	if err != nil || werr != nil {
		t.Fatalf("second Attach: %v %v", err, werr)
	}
	if string(att2.Snapshot.ModePreamble) != "\x1b[?1049h\x1b[?25l" || !bytes.Equal(att2.Snapshot.History, ref.data) ||
		att2.Snapshot.LastSeq < rebuilt.lastSeq || att2.Snapshot.PaneState.PID == nil || *att2.Snapshot.PaneState.PID != pid {
		t.Errorf("reattach: preamble %q, last_seq %d (was %d), pid %v (was %d), history equal %v",
			att2.Snapshot.ModePreamble, att2.Snapshot.LastSeq, rebuilt.lastSeq, att2.Snapshot.PaneState.PID, pid, bytes.Equal(att2.Snapshot.History, ref.data))
	}
}

// Send carries any byte exactly, including ESC, NUL, DEL and bytes over 0x7f.
func TestSendIsByteExact(t *testing.T) {
	td := startDaemon(t)
	c := td.dial(t)
	ok(t, c, &wire.OpSubscribe{PaneID: "raw"})
	ok(t, c, &wire.OpSpawn{Request: shellSpawn("raw", `stty raw -echo; printf READY; head -c 8 | od -An -tx1 -v; sleep 300`)})
	s := &stream{t: t, pane: "raw"}
	s.until(c, "READY", 30*time.Second, s.contains("READY"))
	ok(t, c, &wire.OpSend{PaneID: "raw", Data: []byte{0x1b, 0x00, 0xff, 0x7f, 0x03, 'A', 0x80, 0x0d}})
	s.until(c, "the hex dump", 30*time.Second, s.contains("0d"))
	if !strings.Contains(string(s.data), "1b 00 ff 7f 03 41 80 0d") {
		t.Errorf("the pane read %q", s.data)
	}
}

// A connection that stops reading is cut once its queue passes 8 MiB; the others carry on.
func TestBackpressureCutsASlowConnection(t *testing.T) {
	td := startDaemon(t)
	slow, fine := td.dial(t), td.dial(t)
	ok(t, slow, &wire.OpSubscribe{PaneID: "flood"})
	ok(t, fine, &wire.OpSpawn{Request: shellSpawn("flood", "exec yes 0123456789012345678901234567890123456789012345678901234567890123456789")})
	eventually(t, "the slow connection to be cut", func() bool { return strings.Contains(td.log.String(), "reason=backpressure") })
	ok(t, fine, &wire.OpKillTree{PaneID: "flood"})
	// What the slow client still reads is whole and contiguous, then the stream ends.
	s := &stream{t: t, pane: "flood"}
	slow.SetDeadline(time.Now().Add(10 * time.Second))
	for {
		ev, _, err := slow.Next()
		if err != nil {
			break
		}
		if ev != nil {
			s.take(ev)
		}
	}
	if s.lastSeq == 0 {
		t.Error("the slow client read nothing before the cut")
	}
	ok(t, fine, &wire.OpListThemes{})
}

// When the tmux server is ended behind the daemon's back, the daemon shuts down rather than
// serve panes that no longer exist.
func TestTmuxServerGoneEndsTheDaemon(t *testing.T) {
	td := startDaemon(t)
	c := td.dial(t)
	ok(t, c, &wire.OpSpawn{Request: shellSpawn("p", "sleep 300")})
	if _, err := td.tmux.Run(t.Context(), []string{"kill-server"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-td.d.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the daemon kept running without its tmux server")
	}
}
