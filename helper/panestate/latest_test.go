package panestate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taw-tmux/taw/helper/report"
)

// latest takes the pane's lock latest only, the way ApplyReport does for a hook.
func latest(t *testing.T, dir string, seq uint64, order int) (unlock func(), used uint64, ok bool) {
	t.Helper()
	o := reportOptions{latest: true, order: order}
	rep := report.Report{Seq: &seq}
	_, unlock, err := o.lock(context.Background(), dir, "%1", &rep)
	if err != nil {
		if !errors.Is(err, ErrSuperseded) {
			t.Fatalf("lock: %v", err)
		}
		return nil, 0, false
	}
	return unlock, *rep.Seq, true
}

func TestLatestOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "locks")
	const s = uint64(1_000_000_000_000)
	ms := uint64(1_000_000)
	unlock, seq, ok := latest(t, dir, s+200*ms*10, 0)
	if !ok || seq != s+200*ms*10 {
		t.Fatalf("first report: ok=%t seq=%d", ok, seq)
	}
	unlock()
	// An older report than the one recorded drops itself.
	if _, _, ok := latest(t, dir, s, 0); ok {
		t.Error("an older report took the lock after a newer one")
	}
	unlock, _, ok = latest(t, dir, s+300*ms*10, 500)
	if !ok {
		t.Fatal("a newer report did not get the lock")
	}
	unlock()
	// Two taws a moment apart started out of order: the later script (higher pid) is newer
	// whatever the clocks say, and carries a seq past the one recorded.
	unlock, seq, ok = latest(t, dir, s+300*ms*10-ms, 501)
	if !ok || seq != s+300*ms*10+1 {
		t.Fatalf("the later event: ok=%t seq=%d, want the seq after %d", ok, seq, s+300*ms*10)
	}
	unlock()
	if _, _, ok := latest(t, dir, s+300*ms*10+5*ms, 499); ok {
		t.Error("an earlier event (lower pid) whose taw started last took the lock")
	}
}

func TestWaitingNewerThan(t *testing.T) {
	const ms = uint64(1_000_000)
	base := uint64(1_796_000_000_000_000_000)
	tests := []struct {
		w, o waiting
		want bool
	}{
		{waiting{base + 10*ms, 0}, waiting{base, 0}, true},         // no order: the clock
		{waiting{base, 101}, waiting{base + 10*ms, 100}, true},     // a moment apart: the pid
		{waiting{base + 10*ms, 100}, waiting{base, 101}, false},    // ... either way round
		{waiting{base + 10_000*ms, 100}, waiting{base, 101}, true}, // far apart: the clock
		{waiting{base, 5}, waiting{base + ms, 4_000_000}, false},   // a wrapped pid counter: the clock
		{waiting{base + ms, 300}, waiting{base, 32_700}, true},     // ... the smallest one too
		{waiting{base, 100}, waiting{base, 100}, false},            // itself
	}
	for _, tt := range tests {
		if got := tt.w.newerThan(tt.o); got != tt.want {
			t.Errorf("%+v newer than %+v = %t, want %t", tt.w, tt.o, got, tt.want)
		}
	}
}

func TestLatestOnlyRefusesPlantedFiles(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	victim := filepath.Join(root, "victim")
	if err := os.WriteFile(victim, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	seq := uint64(1)
	rep := report.Report{Source: "integration:claude", Agent: "claude", Verb: report.ReportAgent, State: "idle", Seq: &seq}
	// A lock file that is a link to another file is never opened.
	linked := filepath.Join(root, "linked")
	if err := os.MkdirAll(linked, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, LockPath(linked, "%1")); err != nil {
		t.Fatal(err)
	}
	if _, err := ApplyReport(ctx, nil, linked, "%1", rep, nil, LatestOnly(0)); err == nil {
		t.Error("took a lock through a symlink")
	}
	if b, _ := os.ReadFile(victim); !strings.HasPrefix(string(b), "keep me") {
		t.Errorf("the link's target was written: %q", b)
	}
	// A folder others may write to is not used.
	open := filepath.Join(root, "open")
	if err := os.MkdirAll(open, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := ApplyReport(ctx, nil, open, "%1", rep, nil, LatestOnly(0)); err == nil {
		t.Error("took a lock in a folder writable by others")
	}
	// A lock file others may write is not written.
	shared := filepath.Join(root, "shared")
	if err := os.MkdirAll(shared, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(LockPath(shared, "%1"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(LockPath(shared, "%1"), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := ApplyReport(ctx, nil, shared, "%1", rep, nil, LatestOnly(0)); err == nil {
		t.Error("wrote its seq into a lock file others may write")
	}
}
