package daemon

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/mux/wire"
)

// exploit is a Spawn argument that, split at its NULs, is a second tmux command.
const exploit = "300\x00;\x00set-option\x00-g\x00@x\x00y"

// No string of a Spawn or Respawn reaches tmux split at a NUL: such a request answers SpawnFailed
// and nothing happens on the server, not even the removal of the pane a Respawn would replace.
func TestSpawnStringsWithNULNeverReachTmux(t *testing.T) {
	td := startDaemon(t)
	c := td.dial(t)
	ok(t, c, &wire.OpSpawn{Request: shellSpawn("keep", "exec sleep 300")})
	windows := tmuxOut(t, td, "list-windows", "-a", "-F", "#{window_id}")
	sleep := func(args ...string) wire.SpawnRequest {
		r := shellSpawn("x", "")
		r.Command = wire.CommandSpec{Program: "/bin/sleep", Args: args, Env: [][2]string{}}
		return r
	}
	cwd := "/tmp\x00;\x00set-option\x00-g\x00@x\x00y"
	cases := map[string]wire.SpawnRequest{}
	cases["argument"] = sleep(exploit)
	r := sleep("300")
	r.Command.Program = "/bin/sleep\x00;\x00set-option\x00-g\x00@x\x00y"
	cases["program"] = r
	r = sleep("300")
	r.Command.Cwd = &cwd
	cases["cwd"] = r
	r = sleep("300")
	r.Command.Env = [][2]string{{"A", exploit}}
	cases["env value"] = r
	r = sleep("300")
	r.Command.Env = [][2]string{{"A\x00;\x00set-option\x00-g\x00@x\x00y", "1"}}
	cases["env name"] = r
	r = sleep("300")
	r.Command.Env = [][2]string{{"PATH=/evil:", "1"}}
	cases["env name with ="] = r
	for name, req := range cases {
		for _, respawn := range []bool{false, true} {
			var op wire.Op = &wire.OpSpawn{Request: req}
			if respawn {
				req.PaneID = "keep"
				op = &wire.OpRespawn{Request: req}
			}
			e := wantErr(t, c, op, wire.ErrSpawnFailed)
			if !strings.Contains(e.Message, "NUL") && !strings.Contains(e.Message, "=") {
				t.Errorf("%s: message %q does not say what is wrong", name, e.Message)
			}
		}
	}
	if got := tmuxOut(t, td, "show-options", "-gqv", "@x"); got != "" {
		t.Fatalf("a Spawn argument ran a tmux command: @x = %q", got)
	}
	if got := tmuxOut(t, td, "list-windows", "-a", "-F", "#{window_id}"); got != windows {
		t.Fatalf("windows changed from %q to %q", windows, got)
	}
	st := ok(t, c, &wire.OpListPanes{}).(*wire.Panes).Panes
	if len(st) != 1 || st[0].PaneID != "keep" || st[0].Lifecycle.Phase != wire.PhaseRunning {
		t.Fatalf("a refused Respawn touched the pane it would replace: %+v", st)
	}
}

// A pane killed by a signal is listed and announced as a shell reports it, 128+N, in the
// lifecycle and the exit code alike.
func TestSignalDeathIsReportedConsistently(t *testing.T) {
	td := startDaemon(t)
	c := td.dial(t)
	ok(t, c, &wire.OpSubscribe{PaneID: "sig"})
	ok(t, c, &wire.OpSpawn{Request: shellSpawn("sig", "printf up; kill -TERM $$")})
	s := &stream{t: t, pane: "sig"}
	s.until(c, "the exit", 30*time.Second, func() bool { return s.exited != nil })
	if !td.host.Features().DeadSignal {
		// tmux 3.2a keeps no status of a death by signal: the pane is exited, its code unknown.
		st := ok(t, c, &wire.OpListPanes{}).(*wire.Panes).Panes
		if s.exited.ExitCode != nil || len(st) != 1 || st[0].ExitCode != nil || st[0].Lifecycle.Phase == wire.PhaseRunning {
			t.Fatalf("PaneExited %+v, listed as %+v, want exited with no exit code (tmux %s)", s.exited, st, td.host.Features().Version)
		}
		return
	}
	if s.exited.ExitCode == nil || *s.exited.ExitCode != 128+15 {
		t.Fatalf("PaneExited %+v, want exit code 143", s.exited)
	}
	st := ok(t, c, &wire.OpListPanes{}).(*wire.Panes).Panes
	if len(st) != 1 || st[0].Lifecycle != (wire.Lifecycle{Phase: wire.PhaseExited, ExitCode: 143}) || st[0].ExitCode == nil || *st[0].ExitCode != 143 {
		t.Fatalf("listed as %+v, want exited 143 with exit_code 143", st)
	}
}

// The largest Send a frame carries arrives whole and exact, every byte value included, and
// answers Sent; another client is served while the pane is still reading it.
func TestLargestSendArrivesExactly(t *testing.T) {
	td := startDaemon(t)
	c, other := td.dial(t), td.dial(t)
	data := make([]byte, (wire.MaxFrameBytes-256)/4*3)
	for i := range data {
		data[i] = byte(i*7 + i/251)
	}
	sum := sha256.Sum256(data)
	out := filepath.Join(t.TempDir(), "sum")
	ok(t, c, &wire.OpSubscribe{PaneID: "big"})
	script := fmt.Sprintf("stty raw -echo; printf R; head -c %d | sha256sum > %s; exec sleep 300", len(data), out)
	ok(t, c, &wire.OpSpawn{Request: shellSpawn("big", script)})
	s := &stream{t: t, pane: "big"}
	s.until(c, "the raw terminal", 30*time.Second, s.contains("R"))
	if p := ok(t, c, &wire.OpSend{PaneID: "big", Data: data}); p != wire.AckSent {
		t.Fatalf("Send answered %+v", p)
	}
	ok(t, other, &wire.OpListPanes{})
	want := hex.EncodeToString(sum[:])
	eventually(t, "the pane's checksum of what it read", func() bool {
		b, err := os.ReadFile(out)
		return err == nil && strings.HasPrefix(string(b), want)
	})
	// Short Sends take the other path (send-keys): every byte value arrives there too.
	ok(t, c, &wire.OpSubscribe{PaneID: "small"})
	ok(t, c, &wire.OpSpawn{Request: shellSpawn("small", fmt.Sprintf("stty raw -echo; printf R; head -c 256 | od -An -tx1 -v | tr -d ' \\n' > %s; exec sleep 300", out+"2"))})
	s = &stream{t: t, pane: "small"}
	s.until(c, "the raw terminal", 30*time.Second, s.contains("R"))
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	ok(t, c, &wire.OpSend{PaneID: "small", Data: all[:100]})
	ok(t, c, &wire.OpSend{PaneID: "small", Data: all[100:]})
	eventually(t, "the pane's dump of 256 bytes", func() bool {
		b, err := os.ReadFile(out + "2")
		return err == nil && string(b) == hex.EncodeToString(all)
	})
}

// Someone detaching the daemon's control client from its session costs nothing but the calls in
// flight at that moment: the next call attaches a new one, and output never stopped.
func TestControlClientDetachedIsReplaced(t *testing.T) {
	td := startDaemon(t)
	c := td.dial(t)
	ok(t, c, &wire.OpSubscribe{PaneID: "p"})
	ok(t, c, &wire.OpSpawn{Request: shellSpawn("p", "stty -echo; while read l; do echo got:$l; done")})
	tmuxOut(t, td, "detach-client", "-s", "taw-mux")
	eventually(t, "the control client to go", func() bool {
		return tmuxOut(t, td, "list-clients", "-t", "taw-mux") == ""
	})
	// The call that finds the client gone may fail (tmux may or may not have run it); the next
	// ones are served.
	call(t, c, &wire.OpSend{PaneID: "p", Data: []byte("one\r")})
	ok(t, c, &wire.OpSend{PaneID: "p", Data: []byte("two\r")})
	s := &stream{t: t, pane: "p"}
	s.until(c, "the echo", 30*time.Second, s.contains("got:two"))
}
