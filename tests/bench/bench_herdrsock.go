package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// One report over the herdr socket, beside one taw pane report-agent process, both from inside
// the same pane (the socket finds its pane from the caller's terminal, so the client must run in
// one). The bench binary runs itself in the pane as the client.
const herdrClientEnv = "TAW_BENCH_HERDR_CLIENT"

func init() {
	if out := os.Getenv(herdrClientEnv); out != "" {
		os.Exit(herdrBenchClient(out))
	}
	registerOnServer("herdr-socket", func(e *Env, s string) ([]Result, error) {
		sock := filepath.Join(e.TmpDir, "hs", "herdr.sock")
		keeper := exec.Command(e.Taw, "-L", s, "herdr-socket", "--socket", sock)
		keeper.Env = e.Environ()
		if err := keeper.Start(); err != nil {
			return nil, err
		}
		defer func() { _ = keeper.Process.Signal(os.Interrupt); _ = keeper.Wait() }()
		self, err := os.Executable()
		if err != nil {
			return nil, err
		}
		out := filepath.Join(e.TmpDir, "herdr-bench.out")
		cmd := fmt.Sprintf("env %s=%s HERDR_SOCKET_PATH=%s TAW=%s %s; sleep 100000", herdrClientEnv, out, sock, e.Taw, self)
		if _, err := e.Tmux(s, "new-window", "-d", cmd); err != nil {
			return nil, err
		}
		var b []byte
		if !waitFor(5*time.Minute, 50*time.Millisecond, func() bool {
			b, err = os.ReadFile(out)
			return err == nil && strings.HasSuffix(string(b), "\n")
		}) {
			return nil, fmt.Errorf("the client in the pane wrote no figures within 5 minutes")
		}
		f := strings.Fields(string(b))
		if len(f) != 2 {
			return nil, fmt.Errorf("client: %s", b)
		}
		sockMs, _ := strconv.ParseFloat(f[0], 64)
		cliMs, _ := strconv.ParseFloat(f[1], 64)
		return []Result{{
			What: "report over the herdr socket (connect, send, answer)", Value: sockMs, Unit: "ms",
			Baseline: "taw pane report-agent, same pane", BaseVal: cliMs, Goal: "below 1x",
		}}, nil
	})
}

// herdrBenchClient runs in the pane: it times n socket reports and n report-agent processes and
// writes the two medians (ms) to out.
func herdrBenchClient(out string) int {
	sock, taw := os.Getenv("HERDR_SOCKET_PATH"), os.Getenv("TAW")
	fail := func(err error) int { _ = os.WriteFile(out, []byte("error: "+err.Error()+"\n"), 0o600); return 1 }
	// The server may still be starting.
	for i := 0; ; i++ {
		c, err := net.Dial("unix", sock)
		if err == nil {
			c.Close()
			break
		}
		if i > 200 {
			return fail(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	const n = 200
	states := []string{"working", "idle", "blocked"}
	seq := 0
	socket, err := Median(n, func() error {
		seq++
		c, err := net.Dial("unix", sock)
		if err != nil {
			return err
		}
		defer c.Close()
		line := fmt.Sprintf(`{"id":"bench:%d","method":"pane.report_agent","params":{"pane_id":"%%calling","source":"bench-socket","agent":"bench","state":"%s","seq":%d}}`+"\n", seq, states[seq%3], seq)
		if _, err := c.Write([]byte(line)); err != nil {
			return err
		}
		ans, err := bufio.NewReader(c).ReadString('\n')
		if err != nil || !strings.Contains(ans, `"type":"ok"`) {
			return fmt.Errorf("answer %q: %v", ans, err)
		}
		return nil
	})
	if err != nil {
		return fail(err)
	}
	process, err := Median(n, func() error {
		seq++
		b, err := exec.Command(taw, "pane", "report-agent", "%calling", "--source", "bench-cli", "--agent", "bench", "--state", states[seq%3], "--seq", strconv.Itoa(seq)).CombinedOutput()
		if err != nil {
			return fmt.Errorf("report-agent: %v: %s", err, b)
		}
		return nil
	})
	if err != nil {
		return fail(err)
	}
	_ = os.WriteFile(out, []byte(fmt.Sprintf("%.3f %.3f\n", Ms(socket), Ms(process))), 0o600)
	return 0
}
