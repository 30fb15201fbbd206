package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/report"
)

func TestHookLockLatestOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "locks")
	ctx := context.Background()
	const s = uint64(1_000_000_000_000)
	ms := uint64(1_000_000)
	unlock, _, seq, ok := hookLock(ctx, dir, "%1", s+200*ms*10, 0)
	if !ok || seq != s+200*ms*10 {
		t.Fatalf("first report: ok=%t seq=%d", ok, seq)
	}
	unlock()
	// An older report than the one recorded drops itself.
	if _, _, _, ok := hookLock(ctx, dir, "%1", s, 0); ok {
		t.Error("an older report took the lock after a newer one")
	}
	unlock, _, _, ok = hookLock(ctx, dir, "%1", s+300*ms*10, 500)
	if !ok {
		t.Fatal("a newer report did not get the lock")
	}
	unlock()
	// Two taws a moment apart started out of order: the later script (higher pid) is newer
	// whatever the clocks say, and carries a seq past the one recorded.
	unlock, _, seq, ok = hookLock(ctx, dir, "%1", s+300*ms*10-ms, 501)
	if !ok || seq != s+300*ms*10+1 {
		t.Fatalf("the later event: ok=%t seq=%d, want the seq after %d", ok, seq, s+300*ms*10)
	}
	unlock()
	if _, _, _, ok := hookLock(ctx, dir, "%1", s+300*ms*10+5*ms, 499); ok {
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

func TestHookLockRefusesPlantedFiles(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	victim := filepath.Join(root, "victim")
	if err := os.WriteFile(victim, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A lock file that is a link to another file is never opened.
	linked := filepath.Join(root, "linked")
	if err := os.MkdirAll(linked, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, panestate.LockPath(linked, "%1")); err != nil {
		t.Fatal(err)
	}
	if _, _, _, ok := hookLock(ctx, linked, "%1", 1, 0); ok {
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
	if _, _, _, ok := hookLock(ctx, open, "%1", 1, 0); ok {
		t.Error("took a lock in a folder writable by others")
	}
}

func TestHookReportFastTakesOnlyTheScriptsCall(t *testing.T) {
	f := &Factory{Getenv: func(string) string { return "" }, Now: time.Now, IO: IO{In: strings.NewReader("{}")}}
	for _, args := range [][]string{
		{"taw", "version"},
		{"taw", "hook", "report", "--parent=1", "--order", "2", "claude", "Stop"},
		{"taw", "hook", "report", "--parent", "1", "--order", "x", "claude", "Stop"},
		{"taw", "hook", "report", "--order", "2", "--parent", "1", "claude", "Stop"},
		{"taw", "hook", "report", "--parent", "1", "--order", "2", "--help", "Stop"},
		{"taw", "-L", "s", "hook", "report", "--parent", "1", "--order", "2", "claude"},
	} {
		f.Args = args
		if hookReportFast(context.Background(), f) {
			t.Errorf("%q went the fast way", args)
		}
	}
	// The script's own call, outside tmux: taken, and it reports nothing.
	f.Args = []string{"taw", "hook", "report", "--parent", "1", "--order", "2", "claude", "Stop"}
	if !hookReportFast(context.Background(), f) {
		t.Error("the hook script's call went the usual way")
	}
}

// A hook's resume command keeps its program's search on PATH for when the pane does not hold a
// command of that program for the same source and session already.
func TestResumeOnPathSearchesOnlyForANewCommand(t *testing.T) {
	searched := 0
	f := &Factory{LookPath: func(string) (string, error) { searched++; return "", os.ErrNotExist }}
	sid := "s1"
	rep := report.Report{Source: "integration:claude", Agent: "claude", SessionID: &sid, Resume: []string{"claude", "--resume", "s1"}}
	held := report.Record{Kind: "claude", Source: rep.Source, SessionID: "s1", SessionAgent: "claude", ResumeSource: rep.Source, ResumeAgent: "claude", Resume: []string{"claude", "--resume", "s1", "--model", "m"}}
	pane := panestate.Pane{ID: "%1", Options: panestate.OptionsFromRecord(panestate.NoOptions(), held, 1)}
	if got := resumeOnPath(f, pane, rep); len(got.Resume) != 3 || searched != 0 {
		t.Errorf("held by the pane: resume %q after %d searches, want it kept with none", got.Resume, searched)
	}
	other := "s2"
	next := rep
	next.SessionID = &other
	if got := resumeOnPath(f, pane, next); got.Resume != nil || searched != 1 {
		t.Errorf("another session, program not on PATH: resume %q after %d searches, want none after 1", got.Resume, searched)
	}
	if got := resumeOnPath(f, panestate.Pane{ID: "%1", Options: panestate.NoOptions()}, rep); got.Resume != nil || searched != 2 {
		t.Errorf("a pane without a command: resume %q after %d searches, want none after 2", got.Resume, searched)
	}
}

// A hook reads the head of its payload from a pipe, and the rest to its end; a payload that
// does not come within the wait is no head, and is still drained.
func TestReadHeadOfAPipe(t *testing.T) {
	for _, size := range []int{0, 100, 10, 200} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		payload := strings.Repeat("x", size)
		go func() {
			_, _ = w.WriteString(payload)
			w.Close()
		}()
		head, drained := readHead(r, 64, 10*time.Second)
		want := payload
		if len(want) > 64 {
			want = want[:64]
		}
		if string(head) != want {
			t.Errorf("%d bytes: head %q, want %q", size, head, want)
		}
		<-drained
		r.Close()
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	head, drained := readHead(r, 64, 50*time.Millisecond)
	if head != nil {
		t.Errorf("a payload that never came: head %q", head)
	}
	_, _ = w.WriteString(strings.Repeat("y", 1000))
	w.Close()
	<-drained
}
