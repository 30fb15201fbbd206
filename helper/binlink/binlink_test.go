package binlink

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLink(t *testing.T) {
	home := t.TempDir()
	bin := filepath.Join(t.TempDir(), "taw")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	made, err := Link(home, bin)
	if err != nil || !made || !Same(filepath.Join(home, ".local/bin/taw"), bin) {
		t.Fatalf("first link: made %v, err %v", made, err)
	}
	if made, err := Link(home, bin); err != nil || made {
		t.Fatalf("second link: made %v, err %v; want nothing to do", made, err)
	}
	other := filepath.Join(t.TempDir(), "taw")
	if err := os.WriteFile(other, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if made, err := Link(home, other); err == nil || made {
		t.Fatalf("a link to another taw was replaced: made %v, err %v", made, err)
	}
	// a ~/.local/bin that is a link somewhere else is refused
	home2 := t.TempDir()
	os.MkdirAll(filepath.Join(home2, ".local"), 0o755)
	os.Symlink(t.TempDir(), filepath.Join(home2, ".local/bin"))
	if made, err := Link(home2, bin); err == nil || made {
		t.Fatalf("a linked ~/.local/bin was used: made %v, err %v", made, err)
	}
}
