package herdrsock

import (
	"net"
	"strings"
	"testing"
	"time"
)

// 2,000 connections of the same user that never send a line do not keep a ping waiting: it is
// answered before any of them has been given up for its silence (readTimeout).
func TestPingPromptWithIdleConnections(t *testing.T) {
	path, ln := listening(t)
	defer serving(ln)()

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
