package tmuxhost

import (
	"bytes"
	"context"
	"fmt"
	"github.com/taw-tmux/taw/tests/testrun"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/tmux"
)

// TestMain doubles as the output relay the host's panes run (see RelayFD).
func TestMain(m *testing.M) {
	if os.Getenv("TAW_TEST_RELAY") == "1" {
		if err := RelayFD(os.Args[1], os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(testrun.Run(m))
}

// TestRelay is the Relay of a host in these tests: this test binary.
func testRelay() []string { return []string{"/usr/bin/env", "TAW_TEST_RELAY=1", os.Args[0]} }

func startHost(t testing.TB) *Host { return startHostWith(t, testRelay()) }

func startHostWith(t testing.TB, relay []string) *Host {
	t.Helper()
	tmuxPath, err := exec.LookPath("tmux")
	if err != nil {
		t.Fatal("tmux is not installed: these tests need a real tmux server")
	}
	dir, err := os.MkdirTemp("", "tmxh")
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMUX_TMPDIR=" + dir, "TERM=screen", "SHELL=/bin/sh"}
	tc := &tmux.Client{Global: []string{"-L", "h", "-f", "/dev/null"}, Env: env}
	h, err := Start(context.Background(), Config{Tmux: tc, Own: true, TmuxPath: tmuxPath, RunDir: filepath.Join(dir, "run"), Relay: relay})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		h.Shutdown(context.Background(), nil)
		os.RemoveAll(dir)
	})
	return h
}

type sink struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *sink) write(p []byte) { s.mu.Lock(); s.buf.Write(p); s.mu.Unlock() }
func (s *sink) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.buf.String() }

// The first bytes a program writes are read, and tmux's exit status comes back; a death by
// signal N comes back as 128+N, the number a shell reports, with the signal.
func TestSpawnOutputFromTheFirstByteAndExitStatus(t *testing.T) {
	testSpawnOutput(t, startHost(t))
}

func testSpawnOutput(t *testing.T, h *Host) {
	ctx := context.Background()
	var out sink
	exited, err := h.Spawn(ctx, SpawnSpec{Program: "/bin/sh", Args: []string{"-c", "printf first; exit 3"}, Dir: "/", Rows: 5, Cols: 20}, out.write)
	if err != nil {
		t.Fatal(err)
	}
	killed, err := h.Spawn(ctx, SpawnSpec{Program: "/bin/sh", Args: []string{"-c", "kill -9 $$"}, Dir: "/", Rows: 5, Cols: 20}, func([]byte) {})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, err := h.Poll(ctx)
		if err != nil {
			t.Fatal(err)
		}
		a, b := st[exited.PaneID], st[killed.PaneID]
		if a.Dead && b.Dead && out.String() == "first" {
			if !h.Features().DeadSignal {
				// tmux 3.2a keeps no status of a death by signal: none is made up.
				if a.ExitCode == nil || *a.ExitCode != 3 || b.ExitCode != nil || b.Signal != 0 {
					t.Fatalf("exits %+v and %+v, want status 3, and none for the signal (tmux %s)", a, b, h.Features().Version)
				}
				return
			}
			if a.ExitCode == nil || *a.ExitCode != 3 || a.Signal != 0 || b.ExitCode == nil || *b.ExitCode != 128+9 || b.Signal != 9 {
				t.Fatalf("exits %+v and %+v, want status 3, and signal 9 as 137", a, b)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("statuses %+v %+v, output %q", a, b, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// send-keys -H gets every byte as its two lower-case hex digits.
func TestHexByteIsTheBytesTwoDigits(t *testing.T) {
	for i := 0; i < 256; i++ {
		if got, want := hexByte(byte(i)), fmt.Sprintf("%02x", i); got != want {
			t.Errorf("hexByte(%d) = %q, want %q", i, got, want)
		}
	}
}
