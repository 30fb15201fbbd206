package filelock

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// RuntimeDir is the folder of one user's runtime files: DefaultRuntimeDir, unless that is in a
// shared folder (no XDG_RUNTIME_DIR) and someone else got there first (a link, a folder of
// another user's or one others may write in). Then it is a folder of the user's own with a random
// part in its name, which no one else could have made first; the one in use is recorded in
// tmux's own socket folder (private to the user, or tmux refuses to run), so every taw process of
// the same user and server finds the same. RuntimeProblem says why the default was passed over.
func RuntimeDir(getenv func(string) string, suffix string) string {
	def := DefaultRuntimeDir(getenv, suffix)
	if unsafeDefault(getenv, def) == nil {
		return def
	}
	if dir, err := fallbackDir(getenv, suffix); err == nil {
		return dir
	}
	return def // whoever writes there is refused with the reason, and says so
}

// RuntimeProblem says, in a line for the status line, why taw does not use its default runtime
// folder and what to do; "" when it does.
func RuntimeProblem(getenv func(string) string, suffix string) string {
	def := DefaultRuntimeDir(getenv, suffix)
	err := unsafeDefault(getenv, def)
	if err == nil {
		return ""
	}
	reason := err.Error()
	var ue *UnsafeError
	if errors.As(err, &ue) {
		reason = ue.Reason
	}
	dir, ferr := fallbackDir(getenv, suffix)
	if ferr != nil {
		return fmt.Sprintf("runtime folder %s is unsafe (%s) and no private one could be made (%v): reports fail until you remove it or set XDG_RUNTIME_DIR to a folder of your own", def, reason, ferr)
	}
	return fmt.Sprintf("runtime folder %s is unsafe (%s): taw uses %s instead; remove it, or set XDG_RUNTIME_DIR to a folder of your own", def, reason, dir)
}

// unsafeDefault says why the default folder may not be used, nil when it may (or is not there
// yet, and will be checked as it is made). Only the shared /tmp case falls back: a runtime folder
// the session gave is the user's to mend.
func unsafeDefault(getenv func(string) string, def string) error {
	if filepath.IsAbs(getenv("XDG_RUNTIME_DIR")) {
		return nil
	}
	fi, err := os.Lstat(def)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err == nil && fi.IsDir() && owner(fi) == os.Getuid() && fi.Mode().Perm()&0o022 == 0 {
		return nil // the common case, in one system call
	}
	return PrivateDir(def)
}

// runtimeRecord is the file in tmux's socket folder that names the folder in use.
func runtimeRecord(getenv func(string) string, suffix string) string {
	return filepath.Join(tmpBase(getenv), fmt.Sprintf("tmux-%d", os.Getuid()), "taw-runtime"+suffix)
}

// fallbackDir finds the recorded private folder, or makes one and records it, under a lock so
// two processes at once settle on one.
func fallbackDir(getenv func(string) string, suffix string) (string, error) {
	record := runtimeRecord(getenv, suffix)
	if err := PrivateDir(filepath.Dir(record)); err != nil {
		return "", err
	}
	prefix := filepath.Join(tmpBase(getenv), fmt.Sprintf("taw-%d-", os.Getuid()))
	if dir, ok := recorded(record, prefix, suffix); ok {
		return dir, nil
	}
	unlock, err := Lock(record+".lock", 5*time.Second)
	if err != nil {
		return "", err
	}
	defer unlock()
	if dir, ok := recorded(record, prefix, suffix); ok {
		return dir, nil
	}
	for try := 0; try < 8; try++ {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", err
		}
		dir := prefix + hex.EncodeToString(b[:]) + suffix
		// Mkdir fails on a name someone else took first: a folder made here is the user's alone.
		if err := os.Mkdir(dir, 0o700); errors.Is(err, fs.ErrExist) {
			continue
		} else if err != nil {
			return "", err
		}
		if err := WriteAtomic(record, []byte(dir+"\n"), 0o600); err != nil {
			return "", err
		}
		return dir, nil
	}
	return "", fmt.Errorf("no free private folder name under %s", filepath.Dir(prefix))
}

// recorded is the folder the record names, when it is one this user made as fallbackDir does.
func recorded(record, prefix, suffix string) (string, bool) {
	b, err := ReadFile(record, 4096)
	if err != nil {
		return "", false
	}
	dir := strings.TrimSuffix(string(b), "\n")
	rest, ok := strings.CutPrefix(dir, prefix)
	if !ok || !strings.HasSuffix(rest, suffix) || strings.ContainsAny(rest, "/\n") {
		return "", false
	}
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || owner(fi) != os.Getuid() || fi.Mode().Perm()&0o077 != 0 {
		return "", false
	}
	return dir, true
}
