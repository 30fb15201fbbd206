package panestate

import (
	"os"
	"testing"
)

func TestMemoKeepsThePaneBesideTheLocksRecord(t *testing.T) {
	dir := t.TempDir()
	lock := LockPath(dir, "%3")
	// A hook's waiting report at the start of the lock file stays as it is.
	waiting := "01796000000000000000 0000000042\n"
	if err := os.WriteFile(lock, []byte(waiting), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(lock, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	memo := MemoIn(f)
	if _, ok := memo.Remembered("%3"); ok {
		t.Fatal("a memo was read from a lock file that holds none")
	}
	p := Pane{ID: "%3", PID: 77, Options: map[string]string{OptState: "idle", OptMessage: "a,b}#{c} \"q\""}}
	memo.Remember(p)
	got, ok := memo.Remembered("%3")
	if !ok || got.ID != "%3" || got.PID != 77 || got.Options[OptState] != "idle" || got.Options[OptMessage] != p.Options[OptMessage] || got.partial {
		t.Fatalf("Remembered = %+v, %t; want the pane as remembered", got, ok)
	}
	if _, ok := memo.Remembered("%4"); ok {
		t.Error("another pane's memo was read")
	}
	if _, ok := (Memo{}).Remembered("%3"); ok {
		t.Error("a memo was read with no lock file")
	}
	b, _ := os.ReadFile(lock)
	if string(b[:len(waiting)]) != waiting {
		t.Errorf("the waiting report became %q", b[:len(waiting)])
	}
	// A shorter memo leaves nothing of the longer one behind.
	memo.Remember(Pane{ID: "%3", PID: 77, Options: map[string]string{}})
	if got, ok := memo.Remembered("%3"); !ok || got.Options[OptMessage] != "" {
		t.Errorf("after a shorter memo: %+v, %t", got, ok)
	}
	// A value with a newline cannot be kept in a row: no memo rather than a wrong one.
	memo.Remember(Pane{ID: "%3", Options: map[string]string{OptMessage: "two\nlines"}})
	if _, ok := memo.Remembered("%3"); ok {
		t.Error("a memo of a value with a newline was kept")
	}
}
