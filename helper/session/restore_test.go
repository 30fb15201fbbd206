package session

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/tmux"
)

// A restore that tmux stops half-way (here a window too small for its panes) says what it made
// and what it did not, and leaves none of it behind.
func TestRestoreThatStopsSaysHowFarItGot(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("needs tmux (apt-get install tmux)")
	}
	name := fmt.Sprintf("taw-restore-%d-%d", os.Getpid(), time.Now().UnixNano())
	env := append(os.Environ(), "TMUX_TMPDIR="+t.TempDir())
	start := exec.Command("tmux", "-L", name, "-f", "/dev/null", "new-session", "-d", "-s", "mine")
	start.Env = env
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("start tmux: %v: %s", err, out)
	}
	c := &tmux.Client{Global: []string{"-L", name}, Env: env}
	t.Cleanup(func() { _, _ = c.Run(context.Background(), tmux.Cmd{"kill-server"}) })

	dir := t.TempDir()
	many := make([]Pane, 40)
	for i := range many {
		many[i] = Pane{Index: i, Dir: dir}
	}
	plan := Plan{Create: []Session{
		{Name: "roomy", Windows: []Window{{Index: 0, Name: "one", Panes: []Pane{{Dir: dir}}}}},
		// 40 panes in a window of 10 by 5 cells: tmux runs out of room for them.
		{Name: "cramped", Windows: []Window{{Index: 0, Name: "many", Layout: "0000,10x5,0,0,1", Panes: many}}},
	}}
	r := &Restorer{Client: c, LockDir: t.TempDir(), DirExists: func(string) bool { return true }}
	_, err := r.Restore(context.Background(), plan)
	if err == nil {
		t.Fatal("the restore succeeded; want it stopped by tmux")
	}
	if testing.Verbose() {
		t.Log(err)
	}
	msg := err.Error()
	for _, want := range []string{"restore stopped: it made ", " of 41 panes and 2 of 2 sessions (roomy, cramped)", "nothing of it is kept", "no space for new pane"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error %q does not say %q", msg, want)
		}
	}
	if strings.Contains(msg, "made 0 of") || strings.Contains(msg, "made 41 of") {
		t.Errorf("the error %q does not count the panes made", msg)
	}
	out, _ := c.Output(context.Background(), "list-sessions", "-F", "#{session_name}")
	if out != "mine" {
		t.Errorf("sessions left: %q, want only mine", out)
	}
}
