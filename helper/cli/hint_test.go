package cli

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A hint names taw so that it works as typed: taw when the taw on PATH is this one, else this
// one's absolute path, quoted for the shell.
func TestTawHint(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "my bin", "taw")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "taw")
	if err := os.WriteFile(other, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		onPath string
		want   string
	}{
		{bin, "taw"},
		{other, "'" + bin + "'"},
		{"", "'" + bin + "'"},
	} {
		f := &Factory{Args: []string{bin}, LookPath: func(string) (string, error) {
			if tt.onPath == "" {
				return "", errors.New("not found")
			}
			return tt.onPath, nil
		}}
		if got := tawHint(f); got != tt.want {
			t.Errorf("taw on PATH %q: hint %q, want %q", tt.onPath, got, tt.want)
		}
	}
}
