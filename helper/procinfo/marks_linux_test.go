//go:build linux

package procinfo

import (
	"os/exec"
	"testing"
)

// A kept file reads what a path reads, follows its process through exec, and reads nothing once
// the process is gone; Sweep closes the files nobody read.
func TestMarkReaderKeepsFiles(t *testing.T) {
	var r MarkReader
	defer r.Close()
	pid, typeLine := startPane(t)
	first, err := r.Read(pid)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := ReadMark(pid); first != want || len(r.files) != 1 {
		t.Fatalf("Read = %+v with %d files kept, want ReadMark's %+v with one", first, len(r.files), want)
	}
	typeLine("exec sleep 30")
	waitFor(t, "the kept file to show the shell's exec", func() bool {
		m, err := r.Read(pid)
		return err == nil && m.Comm == "sleep" && m.Start == first.Start
	})

	gone := exec.Command("sleep", "30")
	if err := gone.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Read(gone.Process.Pid); err != nil {
		t.Fatal(err)
	}
	_ = gone.Process.Kill()
	_ = gone.Wait()
	if m, err := r.Read(gone.Process.Pid); err == nil && m.Start != 0 && m.Comm == "sleep" {
		t.Errorf("a reaped process still reads as %+v", m)
	}
	if _, kept := r.files[gone.Process.Pid]; kept {
		t.Error("the file of a reaped process is still kept")
	}

	r.Sweep() // both were read since the reader began: kept
	if len(r.files) != 1 {
		t.Fatalf("after the first sweep %d files are kept, want 1", len(r.files))
	}
	r.Sweep() // nobody read the pane's process since: closed
	if len(r.files) != 0 {
		t.Errorf("after a sweep with no reads %d files are kept, want none", len(r.files))
	}
}
