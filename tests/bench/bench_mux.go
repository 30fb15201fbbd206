package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/taw-tmux/taw/helper/mux/client"
	"github.com/taw-tmux/taw/helper/mux/wire"
)

// taw mux, each beside a baseline timed in the same run on a bare tmux server: output
// throughput from a pane to a subscriber (beside pipe-pane into a FIFO); Send→echo latency
// (beside one long-lived control-mode client, and a send-keys + capture-pane round trip); and
// the throughput of the largest Send (beside load-buffer + paste-buffer). Registered apart, so
// that -only mux-echo runs one.
func init() {
	register("mux-output", func(e *Env) ([]Result, error) {
		return withMux(e, "muxoutput", func(c *client.Conn, s string) ([]Result, error) {
			file, size, err := benchFile(e, 16<<20)
			if err != nil {
				return nil, err
			}
			// Interleaved, so that both see the same machine when other load comes and goes.
			const runs = 5
			var mux, bare []float64
			for i := 0; i < runs; i++ {
				d, err := muxThroughput(c, fmt.Sprintf("tp%d", i), file, size)
				if err != nil {
					return nil, err
				}
				mux = append(mux, mbps(size, d))
				if d, err = bareThroughput(e, s, i, file, size); err != nil {
					return nil, err
				}
				bare = append(bare, mbps(size, d))
			}
			return []Result{{What: fmt.Sprintf("taw mux: %d MiB cat to a subscriber", size>>20), Value: median(mux), Unit: "MB/s",
				Baseline: "same cat, bare tmux pipe-pane", BaseVal: median(bare), Goal: "≥1×"}}, nil
		})
	})
	register("mux-echo", func(e *Env) ([]Result, error) {
		return withMux(e, "muxecho", func(c *client.Conn, s string) ([]Result, error) {
			bareEcho, err := bareEchoLatency(e, s, 100)
			if err != nil {
				return nil, err
			}
			muxRound, err := muxEcho(c)
			if err != nil {
				return nil, err
			}
			ctlRound, stopCtl, err := controlEcho(e, s)
			if err != nil {
				return nil, err
			}
			defer stopCtl()
			// Interleaved one for one, so that both see the same load.
			var muxDs, ctlDs []time.Duration
			for i := 0; i < 300; i++ {
				for _, r := range []struct {
					round func() error
					ds    *[]time.Duration
				}{{muxRound, &muxDs}, {ctlRound, &ctlDs}} {
					t := time.Now()
					if err := r.round(); err != nil {
						return nil, err
					}
					*r.ds = append(*r.ds, time.Since(t))
				}
			}
			echo, ctlEcho := medianDuration(muxDs), medianDuration(ctlDs)
			return []Result{
				{What: "taw mux: Send one byte → its PaneOutput echo", Value: Ms(echo), Unit: "ms",
					Baseline: "tmux send-keys + capture-pane", BaseVal: Ms(bareEcho)},
				{What: "taw mux: Send one byte → its PaneOutput echo", Value: Ms(echo), Unit: "ms",
					Baseline: "tmux -C send-keys → %output", BaseVal: Ms(ctlEcho), Goal: "≤1.5×"},
			}, nil
		})
	})
	register("mux-send", func(e *Env) ([]Result, error) {
		return withMux(e, "muxsend", func(c *client.Conn, s string) ([]Result, error) {
			payload := sendPayload()
			var sendRates, sentRates, pasteRates []float64
			for i := 0; i < 3; i++ {
				d, sent, err := muxSendThroughput(e, c, fmt.Sprintf("send%d", i), payload)
				if err != nil {
					return nil, err
				}
				sendRates = append(sendRates, mbps(len(payload), d))
				sentRates = append(sentRates, mbps(len(payload), sent))
				if d, err = barePasteThroughput(e, s, i, payload); err != nil {
					return nil, err
				}
				pasteRates = append(pasteRates, mbps(len(payload), d))
			}
			return []Result{{What: fmt.Sprintf("taw mux: one %.1f MiB Send read by the pane", float64(len(payload))/(1<<20)), Value: median(sendRates), Unit: "MB/s",
				Baseline: "tmux load-buffer + paste-buffer", BaseVal: median(pasteRates), Goal: "≥10 MB/s"},
				{What: fmt.Sprintf("taw mux: one %.1f MiB Send until its Sent reply", float64(len(payload))/(1<<20)), Value: median(sentRates), Unit: "MB/s"}}, nil
		})
	})
}

// withMux runs f with a connection to a fresh taw mux daemon and a bare tmux server's -L name.
func withMux(e *Env, tag string, f func(c *client.Conn, server string) ([]Result, error)) ([]Result, error) {
	sock := filepath.Join(e.TmpDir, tag+".sock")
	serve := exec.Command(e.Taw, "mux", "serve", "--socket", sock)
	serve.Env = e.Environ()
	if err := serve.Start(); err != nil {
		return nil, err
	}
	defer func() {
		if c, err := client.Dial(sock, "bench", time.Second); err == nil {
			_, _ = c.Call(&wire.OpKillServer{})
			c.Close()
		}
		done := make(chan struct{})
		go func() { _ = serve.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = serve.Process.Kill()
		}
	}()
	c, err := dialWhenReady(sock)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	s, err := e.Server(tag)
	if err != nil {
		return nil, err
	}
	return f(c, s)
}

func benchFile(e *Env, size int) (string, int, error) {
	line := []byte(strings.Repeat("0123456789abcdef", 4) + "\n")
	var b bytes.Buffer
	for b.Len()+len(line) <= size {
		b.Write(line)
	}
	path := filepath.Join(e.TmpDir, "mux-bench.txt")
	return path, b.Len(), os.WriteFile(path, b.Bytes(), 0o644)
}

func dialWhenReady(sock string) (*client.Conn, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := client.Dial(sock, "bench", time.Second)
		if err == nil {
			return c, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("taw mux serve did not come up: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// outputBytes is what a file of this many bytes becomes on a terminal: every \n is sent as \r\n.
func outputBytes(size int) int { return size + size/65 }

func muxThroughput(c *client.Conn, id, file string, size int) (time.Duration, error) {
	if r, err := c.Call(&wire.OpSubscribe{PaneID: id}); err != nil || r.Error != nil {
		return 0, fmt.Errorf("subscribe: %v %v", err, r)
	}
	start := time.Now()
	req := wire.SpawnRequest{PaneID: id, Command: wire.CommandSpec{Program: "/bin/sh", Args: []string{"-c", "cat " + file + "; exec sleep 300"}},
		Size: wire.PaneSize{Rows: 50, Cols: 200}, AdapterID: "bench"}
	if _, err := c.Send(&wire.OpSpawn{Request: req}); err != nil {
		return 0, err
	}
	want, got := outputBytes(size), 0
	var seq uint64
	c.SetDeadline(time.Now().Add(120 * time.Second))
	for got < want {
		ev, reply, err := c.Next()
		if err != nil {
			return 0, fmt.Errorf("read output (%d of %d bytes): %v", got, want, err)
		}
		if reply != nil && reply.Error != nil {
			return 0, fmt.Errorf("spawn: %v", reply.Error)
		}
		if o, ok := ev.(*wire.PaneOutput); ok && o.PaneID == id {
			if o.Seq != seq+1 {
				return 0, fmt.Errorf("seq %d after %d", o.Seq, seq)
			}
			seq = o.Seq
			got += len(o.Data)
		}
	}
	d := time.Since(start)
	c.SetDeadline(time.Time{})
	if r, err := c.Call(&wire.OpKillTree{PaneID: id}); err != nil || r.Error != nil {
		return 0, fmt.Errorf("kill: %v %v", err, r)
	}
	return d, nil
}

func bareThroughput(e *Env, server string, i int, file string, size int) (time.Duration, error) {
	fifo := filepath.Join(e.TmpDir, fmt.Sprintf("bare%d.fifo", i))
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		return 0, err
	}
	f, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	target := fmt.Sprintf("bench:%d", 10+i)
	start := time.Now()
	if out, err := e.Tmux(server, "new-window", "-d", "-t", target, "cat "+file+"; exec sleep 300", ";",
		"pipe-pane", "-O", "-t", target, "exec cat > "+fifo); err != nil {
		return 0, fmt.Errorf("bare pane: %v: %s", err, out)
	}
	want, got := outputBytes(size), 0
	buf := make([]byte, 64*1024)
	f.SetReadDeadline(time.Now().Add(120 * time.Second))
	for got < want {
		n, err := f.Read(buf)
		if err != nil {
			return 0, fmt.Errorf("read bare pane (%d of %d): %v", got, want, err)
		}
		got += n
	}
	d := time.Since(start)
	_, _ = e.Tmux(server, "kill-window", "-t", target)
	return d, nil
}

// muxEcho spawns a pane that echoes raw bytes and returns one round trip: Send a byte, wait for
// its PaneOutput.
func muxEcho(c *client.Conn) (func() error, error) {
	const id = "echo"
	if r, err := c.Call(&wire.OpSubscribe{PaneID: id}); err != nil || r.Error != nil {
		return nil, fmt.Errorf("subscribe: %v %v", err, r)
	}
	req := wire.SpawnRequest{PaneID: id, Command: wire.CommandSpec{Program: "/bin/sh", Args: []string{"-c", "stty raw -echo; printf R; exec cat"}},
		Size: wire.PaneSize{Rows: 50, Cols: 200}, AdapterID: "bench"}
	if r, err := c.Call(&wire.OpSpawn{Request: req}); err != nil || r.Error != nil {
		return nil, fmt.Errorf("spawn: %v %v", err, r)
	}
	if err := waitOutput(c, id, 'R'); err != nil {
		return nil, err
	}
	i := 0
	return func() error {
		i++
		b := byte('a' + i%26)
		if _, err := c.Send(&wire.OpSend{PaneID: id, Data: []byte{b}}); err != nil {
			return err
		}
		return waitOutput(c, id, b)
	}, nil
}

func waitOutput(c *client.Conn, id string, b byte) error {
	c.SetDeadline(time.Now().Add(10 * time.Second))
	defer c.SetDeadline(time.Time{})
	for {
		ev, _, err := c.Next()
		if err != nil {
			return fmt.Errorf("wait for %q: %v", b, err)
		}
		if o, ok := ev.(*wire.PaneOutput); ok && o.PaneID == id && bytes.IndexByte(o.Data, b) >= 0 {
			return nil
		}
	}
}

func bareEchoLatency(e *Env, server string, n int) (time.Duration, error) {
	pane, err := e.Tmux(server, "new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "bench:30", "stty raw -echo; exec cat")
	if err != nil {
		return 0, fmt.Errorf("bare echo pane: %v: %s", err, pane)
	}
	i := 0
	return Median(n, func() error {
		i++
		marker := fmt.Sprintf("%d", i%10)
		if out, err := e.Tmux(server, "send-keys", "-t", pane, "-H", fmt.Sprintf("%02x", marker[0])); err != nil {
			return fmt.Errorf("send-keys: %v: %s", err, out)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			out, err := e.Tmux(server, "capture-pane", "-p", "-t", pane)
			if err != nil {
				return fmt.Errorf("capture-pane: %v", err)
			}
			if strings.HasSuffix(strings.TrimRight(out, "\n "), marker) {
				return nil
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("bare echo of %s not seen: %q", marker, out)
			}
		}
	})
}

func mbps(size int, d time.Duration) float64 { return float64(size) / 1e6 / d.Seconds() }

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// sendPayload is the largest Send a 4 MiB frame carries (base64 makes 3 bytes 4), of every byte
// value.
func sendPayload() []byte {
	n := (wire.MaxFrameBytes - 256) / 4 * 3
	if v, err := strconv.Atoi(os.Getenv("TAW_BENCH_SEND_BYTES")); err == nil && v > 0 && v < n {
		n = v // a smaller Send, for a server too slow for the largest
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/251)
	}
	return b
}

// readerCommand reads exactly n bytes from a raw terminal, then writes a line to a FIFO: the
// moment the whole Send has reached the program.
func readerCommand(n int, fifo string) string {
	return fmt.Sprintf("stty raw -echo; head -c %d >/dev/null; echo done > %s; exec sleep 300", n, fifo)
}

func doneFIFO(e *Env, name string) (*os.File, string, error) {
	path := filepath.Join(e.TmpDir, name)
	_ = os.Remove(path)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		return nil, "", err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	return f, path, err
}

func waitDone(f *os.File) error {
	f.SetReadDeadline(time.Now().Add(120 * time.Second))
	buf := make([]byte, 16)
	_, err := f.Read(buf)
	return err
}

// waitRaw waits until a pane's terminal is raw and silent, so no byte is echoed or cooked.
func waitRawMux(c *client.Conn, id string) error {
	return waitOutput(c, id, 'R')
}

// muxSendThroughput times one Send until the pane has read it all, and until its Sent reply.
func muxSendThroughput(e *Env, c *client.Conn, id string, data []byte) (time.Duration, time.Duration, error) {
	f, fifo, err := doneFIFO(e, id+".fifo")
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	if r, err := c.Call(&wire.OpSubscribe{PaneID: id}); err != nil || r.Error != nil {
		return 0, 0, fmt.Errorf("subscribe: %v %v", err, r)
	}
	cmd := "stty raw -echo; printf R; " + strings.TrimPrefix(readerCommand(len(data), fifo), "stty raw -echo; ")
	req := wire.SpawnRequest{PaneID: id, Command: wire.CommandSpec{Program: "/bin/sh", Args: []string{"-c", cmd}},
		Size: wire.PaneSize{Rows: 50, Cols: 200}, AdapterID: "bench"}
	if r, err := c.Call(&wire.OpSpawn{Request: req}); err != nil || r.Error != nil {
		return 0, 0, fmt.Errorf("spawn: %v %v", err, r)
	}
	if err := waitRawMux(c, id); err != nil {
		return 0, 0, err
	}
	start := time.Now()
	r, err := c.Call(&wire.OpSend{PaneID: id, Data: data})
	sent := time.Since(start)
	if err != nil {
		return 0, 0, err
	}
	if r.Error != nil {
		return 0, 0, fmt.Errorf("send: %v", r.Error)
	}
	if err := waitDone(f); err != nil {
		return 0, 0, fmt.Errorf("the pane did not read the whole Send: %v", err)
	}
	d := time.Since(start)
	if r, err := c.Call(&wire.OpKillTree{PaneID: id}); err != nil || r.Error != nil {
		return 0, 0, fmt.Errorf("kill: %v %v", err, r)
	}
	c.Pending = nil
	return d, sent, nil
}

func barePasteThroughput(e *Env, server string, i int, data []byte) (time.Duration, error) {
	f, fifo, err := doneFIFO(e, fmt.Sprintf("paste%d.fifo", i))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	src := filepath.Join(e.TmpDir, "paste.bin")
	if err := os.WriteFile(src, data, 0o600); err != nil {
		return 0, err
	}
	ready := filepath.Join(e.TmpDir, fmt.Sprintf("paste%d.ready", i))
	target := fmt.Sprintf("bench:%d", 40+i)
	cmd := "stty raw -echo; touch " + ready + "; " + strings.TrimPrefix(readerCommand(len(data), fifo), "stty raw -echo; ")
	if out, err := e.Tmux(server, "new-window", "-d", "-t", target, cmd); err != nil {
		return 0, fmt.Errorf("bare paste pane: %v: %s", err, out)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("bare paste pane did not start")
		}
	}
	start := time.Now()
	// The file is written again inside the timing: a Send's bytes arrive over the wire too.
	if err := os.WriteFile(src, data, 0o600); err != nil {
		return 0, err
	}
	if out, err := e.Tmux(server, "load-buffer", "-b", "bench", src, ";", "paste-buffer", "-r", "-d", "-b", "bench", "-t", target); err != nil {
		return 0, fmt.Errorf("paste: %v: %s", err, out)
	}
	if err := waitDone(f); err != nil {
		return 0, fmt.Errorf("the bare pane did not read the whole paste: %v", err)
	}
	d := time.Since(start)
	_, _ = e.Tmux(server, "kill-window", "-t", target)
	return d, nil
}

// controlEcho is the floor for an echo: one long-lived tmux control-mode client sends a byte
// with send-keys and waits for the %output line that carries it back.
func controlEcho(e *Env, server string) (func() error, func(), error) {
	pane, err := e.Tmux(server, "new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "bench:31", "stty raw -echo; exec cat")
	if err != nil {
		return nil, nil, fmt.Errorf("control echo pane: %v: %s", err, pane)
	}
	cmd := exec.Command("tmux", "-L", server, "-C", "attach-session", "-t", "bench")
	cmd.Env = e.Environ()
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	stop := func() { in.Close(); _ = cmd.Wait() }
	lines := bufio.NewReader(outPipe)
	prefix := "%output " + pane + " "
	i := 0
	return func() error {
		i++
		b := byte('a' + i%26)
		if _, err := fmt.Fprintf(in, "send-keys -H -t %s %02x\n", pane, b); err != nil {
			return err
		}
		for {
			line, err := lines.ReadString('\n')
			if err != nil {
				return fmt.Errorf("control client: %v", err)
			}
			if strings.HasPrefix(line, prefix) && strings.IndexByte(line[len(prefix):], b) >= 0 {
				return nil
			}
		}
	}, stop, nil
}
