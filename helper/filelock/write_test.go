package filelock

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "old"), []byte("old contents"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		rel  string
		data string
		mode fs.FileMode
	}{
		{"a new file", "new", "new\n", 0o600},
		{"over an old file, taking the new mode", "old", "replaced\n", 0o600},
		{"in folders not made yet", "a/b/c.json", "{}\n", 0o644},
		{"empty", "empty", "", 0o600},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.rel)
		if err := WriteAtomic(path, []byte(tt.data), tt.mode); err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil || string(b) != tt.data {
			t.Errorf("%s: read %q %v, want %q", tt.name, b, err, tt.data)
		}
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != tt.mode {
			t.Errorf("%s: mode %v %v, want %v", tt.name, fi.Mode().Perm(), err, tt.mode)
		}
		ents, _ := os.ReadDir(filepath.Dir(path))
		for _, e := range ents {
			if e.Name()[0] == '.' {
				t.Errorf("%s: left %s behind", tt.name, e.Name())
			}
		}
	}
}
