package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// CheckVimSession says why the Session.vim at path may not be given to vim as the user uid, nil
// when it may: vim runs every command in it, so it must be a regular file (not a link) the user
// owns, that no one else can write, in a folder no one else can write (or put another file in).
func CheckVimSession(path string, uid int) error {
	if err := ownedPrivate(path, uid, false); err != nil {
		return err
	}
	return ownedPrivate(filepath.Dir(path), uid, true)
}

func ownedPrivate(path string, uid int, dir bool) error {
	st, err := os.Lstat(path)
	if err != nil {
		return err
	}
	what := "file"
	if dir {
		what = "folder"
	}
	switch {
	case dir && !st.IsDir():
		return fmt.Errorf("%s is not a folder", path)
	case !dir && !st.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file", path)
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("%s: its owner cannot be read", path)
	}
	// A folder root owns (and no one else can write) is as safe as one of the user's own.
	if int(sys.Uid) != uid && !(dir && sys.Uid == 0) {
		return fmt.Errorf("the %s %s belongs to user id %d, not to you", what, path, sys.Uid)
	}
	if st.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("others can write the %s %s (mode %04o)", what, path, st.Mode().Perm())
	}
	return nil
}

// recordVimSession keeps the directory's Session.vim for a vim program when it is safe, and says
// why not when one is there and is not ("" otherwise).
func (p *Program) recordVimSession(uid int) string {
	if !isVim(p.Argv) || p.Dir == "" {
		return ""
	}
	path := filepath.Join(p.Dir, vimSessionFile)
	err := CheckVimSession(path, uid)
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	if err != nil {
		return "Session.vim not recorded: " + err.Error()
	}
	p.VimSession = path
	return ""
}
