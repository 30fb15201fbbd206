package filelock

import (
	"errors"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// otherUser is a second local account, made for the test when it runs as root. Without root no
// other account's files can be planted, so the hostile-user tests need it.
func otherUser(t *testing.T) (uid, gid int) {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("planting another user's folders needs root (CI runs as root): run as root to test")
	}
	const name = "taw-test-other"
	u, err := user.Lookup(name)
	if err != nil {
		if out, err := exec.Command("useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", name).CombinedOutput(); err != nil {
			t.Fatalf("useradd %s: %v: %s", name, err, out)
		}
		if u, err = user.Lookup(name); err != nil {
			t.Fatal(err)
		}
	}
	uid, _ = strconv.Atoi(u.Uid)
	gid, _ = strconv.Atoi(u.Gid)
	return uid, gid
}

// asUser runs a command as the other user, as that user would plant things.
func asUser(t *testing.T, uid, gid int, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("as uid %d: %s %s: %v: %s", uid, name, strings.Join(args, " "), err, out)
	}
}

// sharedTmp is a folder like /tmp: anyone may create in it, no one may move another's entries.
func sharedTmp(t *testing.T) string {
	// Not t.TempDir, whose parent folder only the user may enter.
	dir, err := os.MkdirTemp("", "taw-shared-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	return dir
}

func wantUnsafe(t *testing.T, err error, reason string) {
	t.Helper()
	var u *UnsafeError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), reason) {
		t.Fatalf("err = %v, want a refusal saying %q", err, reason)
	}
	if u.ErrorCode() != "unsafe_path" {
		t.Fatalf("code %q", u.ErrorCode())
	}
}

func TestPrivateDirMakesFoldersOnlyTheUserMayUse(t *testing.T) {
	tmp := sharedTmp(t)
	dir := filepath.Join(tmp, "taw-1", "server")
	if err := PrivateDir(dir); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{filepath.Dir(dir), dir} {
		fi, err := os.Lstat(d)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o700 || !fi.IsDir() {
			t.Errorf("%s: mode %v, want a folder of mode 0700", d, fi.Mode())
		}
	}
	// Asked again, the same folder is fine.
	if err := PrivateDir(dir); err != nil {
		t.Fatal(err)
	}
}

func TestPrivateDirRefusesWhatOthersMayChange(t *testing.T) {
	tmp := sharedTmp(t)
	mine := filepath.Join(tmp, "open")
	if err := os.Mkdir(mine, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(mine, 0o777); err != nil {
		t.Fatal(err)
	}
	wantUnsafe(t, PrivateDir(mine), "others may write in it")
	wantUnsafe(t, PrivateDir(filepath.Join(mine, "below")), "anyone may rename what is in it")
	// A symbolic link of the user's own in place of the folder is refused too.
	if err := os.Symlink(t.TempDir(), filepath.Join(tmp, "link")); err != nil {
		t.Fatal(err)
	}
	wantUnsafe(t, PrivateDir(filepath.Join(tmp, "link")), "symbolic link")
	// A file where the folder goes.
	if err := os.WriteFile(filepath.Join(tmp, "file"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	wantUnsafe(t, PrivateDir(filepath.Join(tmp, "file")), "not a folder")
}

// Another local user plants taw's folder in the shared /tmp before the user's first use, or a
// link to a folder of the user's: both are refused, and nothing is created through them.
func TestPrivateDirRefusesAnotherUsersPlants(t *testing.T) {
	uid, gid := otherUser(t)
	tmp := sharedTmp(t)

	planted := filepath.Join(tmp, "taw-0")
	asUser(t, uid, gid, "mkdir", "-m", "0777", planted)
	wantUnsafe(t, PrivateDir(planted), "belongs to uid "+strconv.Itoa(uid))
	wantUnsafe(t, PrivateDir(filepath.Join(planted, "server")), "a folder on the way belongs to uid")
	if _, err := os.Lstat(filepath.Join(planted, "server")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a folder was made inside the planted one: %v", err)
	}

	victim := t.TempDir() // a folder of the user's the other user wants written into
	link := filepath.Join(tmp, "taw-link")
	asUser(t, uid, gid, "ln", "-s", victim, link)
	wantUnsafe(t, PrivateDir(filepath.Join(link, "server")), "symbolic link owned by uid")
	if ents, _ := os.ReadDir(victim); len(ents) != 0 {
		t.Errorf("something was made through the link: %v", ents)
	}
}

// A link planted where a lock file goes is never opened, so the file it names is not created,
// truncated or written.
func TestLockNeverFollowsALink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(victim, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(dir, "pane-1.lock")
	if err := os.Symlink(victim, lock); err != nil {
		t.Fatal(err)
	}
	_, err := Lock(lock, time.Second)
	wantUnsafe(t, err, "symbolic link")
	missing := filepath.Join(dir, "pane-2.lock")
	if err := os.Symlink(filepath.Join(dir, "made-through-link"), missing); err != nil {
		t.Fatal(err)
	}
	_, _, err = TryLock(missing)
	wantUnsafe(t, err, "symbolic link")
	if _, err := os.Lstat(filepath.Join(dir, "made-through-link")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a file was created through a dangling link")
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Errorf("the linked file changed: %q", b)
	}
}

// A holder that never lets go makes Lock answer busy after the wait, not hang.
func TestLockWaitIsBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	unlock, err := Lock(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	start := time.Now()
	_, err = Lock(path, 100*time.Millisecond)
	var busy *BusyError
	if !errors.As(err, &busy) || busy.ErrorCode() != "busy" {
		t.Fatalf("Lock while held = %v, want busy", err)
	}
	if waited := time.Since(start); waited < 100*time.Millisecond {
		t.Errorf("answered busy after %s, before the wait was over", waited)
	}
	// Released in the meantime, the lock is taken within the wait.
	path2 := filepath.Join(t.TempDir(), "y.lock")
	u2, _ := Lock(path2, time.Second)
	go func() { time.Sleep(50 * time.Millisecond); u2() }()
	u3, err := Lock(path2, 5*time.Second)
	if err != nil {
		t.Fatalf("Lock after the holder let go: %v", err)
	}
	u3()
}
