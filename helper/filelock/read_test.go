package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// ReadFile reads only a regular file, never blocks on a FIFO, and refuses a file past its bound
// before reading it.
func TestReadFileOnlyRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	var nr *NotRegularError
	if _, err := ReadFile(fifo, 1<<20); !errors.As(err, &nr) || nr.Kind != "a FIFO" {
		t.Errorf("a FIFO: %v", err)
	}
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(zero, 1<<20); !errors.As(err, &nr) || nr.Kind != "a device" {
		t.Errorf("a link to /dev/zero: %v", err)
	}
	if _, err := ReadFile(dir, 1<<20); !errors.As(err, &nr) || nr.Kind != "a folder" {
		t.Errorf("a folder: %v", err)
	}
	big := filepath.Join(dir, "big")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var tl *TooLargeError
	if _, err := ReadFile(big, 1<<20); !errors.As(err, &tl) {
		t.Errorf("a 2 GiB sparse file: %v", err)
	}
	ok := filepath.Join(dir, "ok")
	if err := os.WriteFile(ok, []byte("x = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(ok, 1<<20); err != nil || string(b) != "x = 1\n" {
		t.Errorf("a regular file: %q %v", b, err)
	}
	if _, err := ReadFile(filepath.Join(dir, "none"), 1<<20); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}
