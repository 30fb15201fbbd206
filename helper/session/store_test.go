package session

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

func onePane(name string) *Document {
	return doc(Session{Name: name, Windows: []Window{{Index: 0, Panes: []Pane{{Dir: "/"}}}}})
}

func TestStoreWriteRead(t *testing.T) {
	st := &Store{Dir: filepath.Join(t.TempDir(), "sessions"), Backups: 2}
	if _, err := st.Write("a", onePane("one"), false); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(st.Path("a", 0))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("a save is private to the user: %v %v", fi.Mode(), err)
	}
	if di, _ := os.Stat(st.Dir); di.Mode().Perm() != 0o700 {
		t.Fatalf("the folder is private: %v", di.Mode())
	}
	d, err := st.Read("a", 0)
	if err != nil || d.Sessions[0].Name != "one" {
		t.Fatalf("read back %+v %v", d, err)
	}

	// Three more distinct saves: two earlier copies are kept, the newest as copy 1.
	for _, n := range []string{"two", "three", "four"} {
		if _, err := st.Write("a", onePane(n), false); err != nil {
			t.Fatal(err)
		}
	}
	for k, want := range map[int]string{0: "four", 1: "three", 2: "two"} {
		d, err := st.Read("a", k)
		if err != nil || d.Sessions[0].Name != want {
			t.Errorf("copy %d: %+v %v, want %s", k, d, err, want)
		}
	}
	if _, err := st.Read("a", 3); !errors.As(err, new(*NotFoundError)) {
		t.Errorf("copy 3 must be gone: %v", err)
	}

	// The same sessions again push no copy out.
	res, err := st.Write("a", onePane("four"), false)
	if err != nil || !res.Unchanged {
		t.Fatalf("unchanged %+v %v", res, err)
	}
	if d, _ := st.Read("a", 1); d.Sessions[0].Name != "three" {
		t.Errorf("copy 1 moved on an unchanged save")
	}

	entries, err := st.List()
	if err != nil || len(entries) != 1 || entries[0].Name != "a" || entries[0].Backups != 2 || entries[0].Panes != 1 {
		t.Fatalf("list %+v %v", entries, err)
	}
	if n, err := st.Delete("a"); err != nil || n != 3 {
		t.Fatalf("delete %d %v", n, err)
	}
	if _, err := st.Delete("a"); !errors.As(err, new(*NotFoundError)) {
		t.Fatalf("delete twice: %v", err)
	}
}

func TestStoreRefusesEmpty(t *testing.T) {
	st := &Store{Dir: t.TempDir(), Backups: 1}
	if _, err := st.Write("a", onePane("one"), false); err != nil {
		t.Fatal(err)
	}
	empty := doc()
	var e *EmptyError
	if _, err := st.Write("a", empty, false); !errors.As(err, &e) || e.Panes != 1 {
		t.Fatalf("an empty save must not replace one with panes: %v", err)
	}
	if d, _ := st.Read("a", 0); d.Count().Panes != 1 {
		t.Fatalf("the refused write changed the save")
	}
	if _, err := st.Write("a", empty, true); err != nil {
		t.Fatalf("--force: %v", err)
	}
	if d, _ := st.Read("a", 0); d.Count().Panes != 0 {
		t.Fatalf("forced write not applied")
	}
	if d, _ := st.Read("a", 1); d.Count().Panes != 1 {
		t.Fatalf("the replaced save is kept as copy 1")
	}
	// An empty save over an empty one, or of a new name, is fine.
	if _, err := st.Write("b", empty, false); err != nil {
		t.Fatal(err)
	}
}

func TestStoreRemovesDeadWritersTemps(t *testing.T) {
	st := &Store{Dir: t.TempDir()}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true(1)")
	}
	dead := filepath.Join(st.Dir, ".a.json.tmp-"+strconv.Itoa(cmd.Process.Pid)+"-1")
	mine := filepath.Join(st.Dir, ".a.json.tmp-"+strconv.Itoa(os.Getppid())+"-1") // a live process
	for _, p := range []string{dead, mine} {
		if err := os.WriteFile(p, []byte("{half"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if entries, _ := st.List(); len(entries) != 0 {
		t.Fatalf("a temporary file is never listed: %+v", entries)
	}
	if _, err := st.Write("a", onePane("x"), false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the dead writer's file stays: %v", err)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("a live writer's file was removed: %v", err)
	}
}

func TestCheckName(t *testing.T) {
	for _, ok := range []string{"default", "my-agent-test", "a.b_c", "0"} {
		if err := CheckName(ok); err != nil {
			t.Errorf("CheckName(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", ".hidden", "-x", "a/b", "../x", "a b", string(make([]byte, 65))} {
		if err := CheckName(bad); err == nil {
			t.Errorf("CheckName(%q) accepted", bad)
		}
	}
}

func TestDecode(t *testing.T) {
	good, _ := Encode(onePane("s"))
	if _, err := Decode(good); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{
		`{`, `[]`, `{"format":"other","version":1}`,
		`{"format":"taw-session","version":2,"sessions":[]}`,
		`{"format":"taw-session","version":0,"sessions":[]}`,
		`{"format":"taw-session","version":1,"sessions":[{"name":"","windows":[]}]}`,
		`{"format":"taw-session","version":1,"sessions":[{"name":"a","windows":[]}]}`,
		`{"format":"taw-session","version":1,"sessions":[{"name":"a","windows":[{"index":0,"panes":[]}]}]}`,
		`{"format":"taw-session","version":1,"sessions":[{"name":"a","windows":[{"index":0,"panes":[{}]},{"index":0,"panes":[{}]}]}]}`,
		`{"format":"taw-session","version":1,"sessions":[{"name":"a","windows":[{"index":0,"panes":[{}]}]},{"name":"a","windows":[{"index":0,"panes":[{}]}]}]}`,
	} {
		if _, err := Decode([]byte(bad)); !errors.As(err, new(*DocumentError)) {
			t.Errorf("Decode(%s) = %v, want a DocumentError", bad, err)
		}
	}
}

func TestDir(t *testing.T) {
	env := map[string]string{"HOME": "/h"}
	if got := Dir(func(k string) string { return env[k] }); got != "/h/.local/share/taw/sessions" {
		t.Errorf("Dir = %s", got)
	}
	env["XDG_DATA_HOME"] = "/x"
	if got := Dir(func(k string) string { return env[k] }); got != "/x/taw/sessions" {
		t.Errorf("Dir = %s", got)
	}
}

func TestStoreConcurrentWrites(t *testing.T) {
	st := &Store{Dir: t.TempDir(), Backups: 3}
	done := make(chan error)
	for i := 0; i < 8; i++ {
		go func(i int) {
			_, err := st.Write("a", onePane("s"+strconv.Itoa(i)), false)
			done <- err
		}(i)
	}
	for i := 0; i < 8; i++ {
		if err := <-done; err != nil {
			t.Errorf("concurrent write: %v", err)
		}
	}
	for k := 0; k <= 3; k++ {
		if _, err := st.Read("a", k); err != nil {
			t.Errorf("copy %d after concurrent writes: %v", k, err)
		}
	}
}
