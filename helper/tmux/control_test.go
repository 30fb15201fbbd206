package tmux

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// collected is the pane output a control client handed on.
type collected struct {
	mu  sync.Mutex
	out map[string][]byte
}

func (c *collected) take(id string, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.out[id] = append(c.out[id], data...)
}

func (c *collected) of(id string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return string(c.out[id])
}

func controlServer(t *testing.T) (*Client, *Control, *collected) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is not installed: these tests need a real tmux server")
	}
	dir, err := os.MkdirTemp("", "tmxc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMUX_TMPDIR=" + dir, "TERM=screen", "SHELL=/bin/sh", "LANG=C.UTF-8"}
	c := &Client{Bin: "tmux", Global: []string{"-L", "ctl", "-f", "/dev/null"}, Env: env}
	ctx := context.Background()
	if _, err := c.Run(ctx, Cmd{"new-session", "-d", "-s", "s", "-x", "80", "-y", "24"}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = c.Run(context.Background(), Cmd{"kill-server"}) })
	got := &collected{out: map[string][]byte{}}
	ctl, err := c.StartControl(ctx, "s", "", got.take)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ctl.Close)
	return c, ctl, got
}

// Every byte but NUL goes through a control-mode line and comes back as itself; a NUL is
// refused before anything is written.
func TestControlLineCarriesEveryByte(t *testing.T) {
	c, ctl, _ := controlServer(t)
	ctx := context.Background()
	values := []string{"~x", "a;", ";", "{", "}", "#{pane_id}", "$HOME", "\xff\xfe", "日本", "%if 1", "it's", `\`, "a\nb", "-t", "--"}
	for b := 1; b < 256; b++ {
		values = append(values, string([]byte{byte(b)}))
	}
	for i, v := range values {
		if _, err := ctl.Run(ctx, Cmd{"set-option", "-g", fmt.Sprintf("@v%d", i), v}); err != nil {
			t.Fatalf("set %q: %v", v, err)
		}
	}
	for i, v := range values {
		// Read back through the row vocabulary: some releases escape what show-options prints.
		out, err := c.Output(ctx, "display-message", "-p", Text(fmt.Sprintf("@v%d", i)))
		if got := Decode(out); err != nil || got != v {
			t.Errorf("%q came back as %q (%v)", v, got, err)
		}
	}
	if _, err := ctl.Run(ctx, Cmd{"set-option", "-g", "@x", "a\x00;\x00set-option\x00-g\x00@y\x00z"}); err == nil {
		t.Fatal("a NUL was sent")
	}
	if got, _ := c.Run(ctx, Cmd{"show-options", "-gqv", "@y"}); got != "" {
		t.Fatalf("@y = %q", got)
	}
}

// Answers come back to the call that asked, errors classified, in order, from many callers at
// once; and a pane's output arrives byte for byte.
func TestControlAnswersAndOutput(t *testing.T) {
	_, ctl, got := controlServer(t)
	ctx := context.Background()
	errs := make(chan error, 20)
	for i := 0; i < 20; i++ {
		go func(i int) {
			out, err := ctl.Run(ctx, Cmd{"display-message", "-p", fmt.Sprintf("n%d", i)}, Cmd{"display-message", "-p", "m"})
			if err == nil && out != fmt.Sprintf("n%d\nm\n", i) {
				err = fmt.Errorf("call %d got %q", i, out)
			}
			errs <- err
		}(i)
	}
	for i := 0; i < 20; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	_, err := ctl.Run(ctx, Cmd{"kill-pane", "-t", "%99"})
	if te, ok := err.(*Error); !ok || te.Code != "pane_not_found" {
		t.Fatalf("kill-pane of no pane: %v", err)
	}
	pane, err := ctl.Run(ctx, Cmd{"new-window", "-d", "-P", "-F", "#{pane_id}", "--", "/bin/sh", "-c", `stty raw -echo; printf 'a\\b\001\033[1m\377\n'; exec sleep 300`})
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSpace(pane)
	deadline := time.Now().Add(30 * time.Second)
	for got.of(id) != "a\\b\x01\x1b[1m\xff\n" {
		if time.Now().After(deadline) {
			t.Fatalf("output %q", got.of(id))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A control client that someone detaches ends while the server runs on: its calls fail, but not
// as a server that has gone (a daemon that took them so would shut down), and the server's end
// does read as gone.
func TestControlDetachedIsNoServerGone(t *testing.T) {
	c, ctl, _ := controlServer(t)
	ctx := context.Background()
	if _, err := c.Run(ctx, Cmd{"detach-client", "-s", "s"}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !ctl.Ended() {
		if time.Now().After(deadline) {
			t.Fatal("the detached control client did not end within 30s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	_, err := ctl.Run(ctx, Cmd{"display-message", "-p", "x"})
	if err == nil || IsServerGone(err) {
		t.Fatalf("a call on the detached client: %v, want a failure that is not the server gone", err)
	}
	if _, err := c.Run(ctx, Cmd{"display-message", "-p", "x"}); err != nil {
		t.Fatalf("the server after the detach: %v", err)
	}
	// Once the server is gone, an attached control client says so, and so does a new one.
	live, err := c.StartControl(ctx, "s", "", func(string, []byte) {})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	_, _ = c.Run(ctx, Cmd{"kill-server"})
	select {
	case <-live.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the control client outlived its server by 30s")
	}
	if _, err := live.Run(ctx, Cmd{"display-message", "-p", "x"}); !IsServerGone(err) {
		t.Fatalf("a call on the client of a killed server: %v, want the server gone", err)
	}
	if _, err := c.StartControl(ctx, "s", "", func(string, []byte) {}); !IsServerGone(err) {
		t.Fatalf("a control client of a killed server: %v, want the server gone", err)
	}
}
