package unixsock

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestListenReplacesOnlyADeadSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.sock")
	ln, err := Listen(path, "")
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode: %v %v", fi.Mode(), err)
	}
	if _, err := Listen(path, ""); !errors.Is(err, ErrLive) {
		t.Fatalf("a second Listen on a live socket: %v, want ErrLive", err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close() // the socket file stays, with nobody answering
	again, err := Listen(path, "")
	if err != nil {
		t.Fatalf("a dead socket was not replaced: %v", err)
	}
	again.Close()
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(file, " or else"); err == nil || !strings.Contains(err.Error(), "not a socket: remove it or else") {
		t.Fatalf("a plain file: %v", err)
	}
}
