package tests

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/cli"
	"github.com/taw-tmux/taw/helper/mux/client"
	"github.com/taw-tmux/taw/helper/mux/wire"
)

// muxDaemon is a real `taw mux serve` with a tmux server of its own, for a Go test.
type muxDaemon struct {
	socket  string
	tmux    string // the -L name of the daemon's tmux server
	tmuxPid int    // that server's process, which the test makes sure ends
	cmd     *exec.Cmd
	exited  chan struct{}
}

// startMux starts the daemon in a private folder and waits (bounded) until it answers.
func startMux(t *testing.T) *muxDaemon {
	t.Helper()
	taw, err := exec.LookPath("taw")
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("/tmp", "tawmk")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	t.Setenv("TMUX", "")
	t.Setenv("TMUX_TMPDIR", dir)
	t.Setenv("XDG_RUNTIME_DIR", dir)
	m := &muxDaemon{socket: filepath.Join(dir, "mux.sock"), exited: make(chan struct{})}
	m.tmux = cli.MuxTmuxName(m.socket)
	m.cmd = exec.Command(taw, "mux", "serve", "--socket", m.socket)
	m.cmd.Dir = dir
	if err := m.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = m.cmd.Wait(); close(m.exited) }()
	t.Cleanup(func() {
		// Whatever the test did to it, nothing is left running: the daemon is asked to end as a
		// client would, then made to; its tmux server, stopped and resumed by a test, may have
		// missed its lifeline's end, so it goes by its pid.
		m.thaw()
		if c, err := client.Dial(m.socket, "cleanup", time.Second); err == nil {
			_, _ = c.Send(&wire.OpKillServer{})
			c.Close()
		}
		select {
		case <-m.exited:
		case <-time.After(5 * time.Second):
			_ = m.cmd.Process.Kill()
			<-m.exited
		}
		_ = exec.Command("tmux", "-L", m.tmux, "kill-server").Run()
		if m.tmuxPid > 0 {
			if _, ok := waitUntil(5*time.Second, 20*time.Millisecond, func() (bool, string) {
				return syscall.Kill(m.tmuxPid, 0) != nil, "still running"
			}); !ok {
				t.Logf("the daemon's tmux server %d outlived it by 5s: killed", m.tmuxPid)
				_ = syscall.Kill(m.tmuxPid, syscall.SIGKILL)
			}
		}
	})
	if _, ok := waitUntil(30*time.Second, 50*time.Millisecond, func() (bool, string) {
		c, err := client.Dial(m.socket, "test", time.Second)
		if err != nil {
			return false, err.Error()
		}
		c.Close()
		return true, ""
	}); !ok {
		t.Fatal("taw mux serve did not answer within 30s")
	}
	m.tmuxPid = m.tmuxPID(t)
	return m
}

// tmuxPID is the daemon's tmux server's process id.
func (m *muxDaemon) tmuxPID(t *testing.T) int {
	out, err := exec.Command("tmux", "-L", m.tmux, "display-message", "-p", "#{pid}").Output()
	if err != nil {
		t.Fatalf("read the daemon's tmux server: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

var frozen sync.Map // tmux server pids a test stopped, to be sure they go on again

// freeze stops the daemon's tmux server (SIGSTOP), as a server that stopped answering.
func (m *muxDaemon) freeze(t *testing.T) {
	pid := m.tmuxPID(t)
	frozen.Store(m, pid)
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
}

func (m *muxDaemon) thaw() {
	if pid, ok := frozen.LoadAndDelete(m); ok {
		_ = syscall.Kill(pid.(int), syscall.SIGCONT)
	}
}

func spawnOp(id string) *wire.OpSpawn {
	return &wire.OpSpawn{Request: wire.SpawnRequest{PaneID: id, Command: wire.CommandSpec{Program: "/bin/sh", Args: []string{"-c", "echo ready; exec sleep 600"}},
		Size: wire.PaneSize{Rows: 24, Cols: 80}}}
}

// TestMuxKillServerEndsTheDaemon: KillServer ends the daemon at once, whatever its connections
// do and even with its tmux server stopped: the socket goes, the process exits within a couple
// of seconds, and its tmux server does not outlive it. The connections: some that never said Hello (half of them mid-frame), one
// that shook hands and reads nothing, and one that spawned 60 panes, subscribed to them, killed
// them and hung up without reading.
func TestMuxKillServerEndsTheDaemon(t *testing.T) {
	m := startMux(t)
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	for i := 0; i < 20; i++ {
		nc, err := net.Dial("unix", m.socket)
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			// The start of a frame whose length promises more.
			_, _ = nc.Write([]byte{0, 0, 1, 0, '{'})
		}
		held = append(held, nc)
	}
	quiet, err := client.Dial(m.socket, "quiet", 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer quiet.Close()

	busy, err := client.Dial(m.socket, "busy", 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	busy.SetDeadline(time.Now().Add(2 * time.Minute))
	for i := 0; i < 60; i++ {
		id := fmt.Sprintf("p%d", i)
		if r, err := busy.Call(spawnOp(id)); err != nil || r.Error != nil {
			t.Fatalf("spawn %s: %v %+v", id, err, r)
		}
		if _, err := busy.Call(&wire.OpSubscribe{PaneID: id}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 60; i++ {
		if _, err := busy.Send(&wire.OpKillTree{PaneID: fmt.Sprintf("p%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	busy.Close()

	m.freeze(t)
	killer, err := client.Dial(m.socket, "killer", 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer killer.Close()
	sent := time.Now()
	if _, err := killer.Send(&wire.OpKillServer{}); err != nil {
		t.Fatal(err)
	}
	const limit = 5 * time.Second // "a second or two", with room for a loaded machine
	if last, ok := waitUntil(limit, 20*time.Millisecond, func() (bool, string) {
		_, err := os.Lstat(m.socket)
		return os.IsNotExist(err), fmt.Sprintf("the socket is still there (%v)", err)
	}); !ok {
		t.Fatalf("%s after KillServer: %s", limit, last)
	}
	select {
	case <-m.exited:
		t.Logf("the daemon exited %s after KillServer", time.Since(sent).Round(10*time.Millisecond))
	case <-time.After(limit - time.Since(sent)):
		t.Fatalf("the daemon still runs %s after KillServer", limit)
	}
	// Its tmux server, stopped when the daemon went, went with it.
	if _, ok := waitUntil(limit, 20*time.Millisecond, func() (bool, string) {
		return syscall.Kill(m.tmuxPid, 0) != nil, "still running"
	}); !ok {
		t.Fatalf("the daemon's tmux server %d outlived it", m.tmuxPid)
	}
	// Its reply was written before the connection closed.
	killer.SetDeadline(time.Now().Add(5 * time.Second))
	if _, r, err := killer.Next(); err != nil || r == nil || r.Payload != wire.AckServerKillScheduled {
		t.Fatalf("KillServer's reply: %+v %v", r, err)
	}
}

// TestMuxSpawnBurstWaitsItsTurn: 40 Spawns at once, while the daemon's tmux server does not
// answer for longer than any one tmux call used to be given (10 s), all start once it answers
// again: each waits its turn within its request's deadline instead of failing.
func TestMuxSpawnBurstWaitsItsTurn(t *testing.T) {
	m := startMux(t)
	const n = 40
	conns := make([]*client.Conn, n)
	for i := range conns {
		c, err := client.Dial(m.socket, "burst", 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns[i] = c
	}
	m.freeze(t)
	errs := make(chan string, n)
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Add(1)
		go func(i int, c *client.Conn) {
			defer wg.Done()
			c.SetDeadline(time.Now().Add(2 * time.Minute))
			r, err := c.Call(spawnOp(fmt.Sprintf("b%d", i)))
			switch {
			case err != nil:
				errs <- fmt.Sprintf("spawn b%d: %v", i, err)
			case r.Error != nil:
				errs <- fmt.Sprintf("spawn b%d: %s %s", i, r.Error.Kind, r.Error.Message)
			}
		}(i, c)
	}
	// Stopped for longer than the old fixed patience of a tmux call.
	time.Sleep(12 * time.Second)
	m.thaw()
	wg.Wait()
	close(errs)
	var failed []string
	for e := range errs {
		failed = append(failed, e)
	}
	if len(failed) > 0 {
		t.Fatalf("%d of %d spawns failed; the first: %s", len(failed), n, failed[0])
	}
	// Every pane runs.
	r, err := conns[0].Call(&wire.OpListPanes{})
	if err != nil {
		t.Fatal(err)
	}
	panes, _ := r.Payload.(*wire.Panes)
	if panes == nil || len(panes.Panes) != n {
		t.Fatalf("ListPanes after the burst: %+v", r.Payload)
	}
}
