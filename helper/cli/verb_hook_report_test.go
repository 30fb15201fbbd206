package cli

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/report"
)

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
