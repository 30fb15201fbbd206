// Package binlink puts taw on the person's PATH, with their consent: a link to the binary in
// ~/.local/bin, the folder the XDG base directory spec names for a user's executables.
package binlink

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Dir is the folder taw links itself into, under home.
func Dir(home string) string { return filepath.Join(home, ".local", "bin") }

// Same says whether two paths name the same file, links followed.
func Same(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// Link makes home/.local/bin/taw a link to bin. It makes the folder when it is missing, refuses a
// folder (or a folder on the way) that is a link or that belongs to someone else, and leaves a
// file of another taw or another program there alone. It says whether it made the link.
func Link(home, bin string) (made bool, err error) {
	dir := Dir(home)
	for _, d := range []string{filepath.Join(home, ".local"), dir} {
		st, err := os.Lstat(d)
		if errors.Is(err, fs.ErrNotExist) {
			if err := os.Mkdir(d, 0o755); err != nil {
				return false, err
			}
			continue
		}
		if err != nil {
			return false, err
		}
		if !st.IsDir() || st.Mode()&fs.ModeSymlink != 0 {
			return false, fmt.Errorf("%s is not a folder of your own (a link or a file): taw links nothing there", d)
		}
		if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
			return false, fmt.Errorf("%s belongs to another user: taw links nothing there", d)
		}
	}
	link := filepath.Join(dir, "taw")
	if _, err := os.Lstat(link); err == nil {
		if Same(link, bin) {
			return false, nil
		}
		return false, fmt.Errorf("%s is there already and is not this taw: it is left alone; remove it, or run %s", link, bin)
	}
	if err := os.Symlink(bin, link); err != nil {
		return false, err
	}
	return true, nil
}
