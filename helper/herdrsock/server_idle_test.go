package herdrsock

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// 2,000 connections of the same user that never send a line do not keep a ping waiting: it is
// answered before any of them has been given up for its silence (readTimeout).
func TestPingPromptWithIdleConnections(t *testing.T) {
	dir, err := os.MkdirTemp("/tmp", "hs")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "taw", "h.sock")
	ln, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, &Handler{Version: "test"}) }()
	defer func() {
		cancel()
		<-done
	}()

	var idle []net.Conn
	defer func() {
		for _, c := range idle {
			c.Close()
		}
	}()
	start := time.Now()
	for i := 0; i < 2000; i++ {
		c, err := net.DialTimeout("unix", path, 2*time.Second)
		if err != nil {
			t.Fatalf("idle connection %d: %v", i, err)
		}
		idle = append(idle, c)
	}
	answer, _ := call(t, path, `{"id":"p","method":"ping","params":{}}`)
	if !strings.Contains(answer, `"type":"pong"`) {
		t.Fatalf("ping answered %q", answer)
	}
	if took := time.Since(start); took >= readTimeout {
		t.Fatalf("the ping was answered only %s after the idle connections opened, as late as their own timeout", took.Round(time.Millisecond))
	}
}
