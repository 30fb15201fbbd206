package tests

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/taw-tmux/taw/helper/report"
)

// TestConcurrentReports fires many reports at one pane at once, from several sources, with their
// numbers shuffled: however they interleave, every source's highest number is the one that counts
// and no update is lost or corrupted.
func TestConcurrentReports(t *testing.T) {
	tawBin, err := exec.LookPath("taw")
	if err != nil {
		t.Fatal("taw is not on PATH: the test binary installs it (TestMain)")
	}
	sock := t.TempDir()
	name := fmt.Sprintf("taw-stress-%d", os.Getpid())
	env := append(os.Environ(), "TMUX=", "TMUX_PANE=", "TMUX_TMPDIR="+sock)
	tmux := func(args ...string) string {
		cmd := exec.Command("tmux", append([]string{"-L", name}, args...)...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	tmux("-f", "/dev/null", "new-session", "-d", "-s", "stress")
	defer tmux("kill-server")
	pane := tmux("display-message", "-p", "-t", "stress:0.0", "#{pane_id}")

	const perSource = 25
	type call struct{ args []string }
	var calls []call
	// The holder reports its state; two more sources report sessions, which never take the pane.
	for seq := 1; seq <= perSource; seq++ {
		calls = append(calls,
			call{[]string{"pane", "report-agent", pane, "--source", "holder", "--agent", "stress", "--state", []string{"idle", "working", "blocked"}[seq%3], "--message", fmt.Sprint("m", seq), "--seq", fmt.Sprint(seq)}},
			call{[]string{"pane", "report-agent-session", pane, "--source", "s1", "--agent", "stress", "--agent-session-id", fmt.Sprint("s1-", seq), "--seq", fmt.Sprint(seq)}},
			call{[]string{"pane", "report-agent-session", pane, "--source", "s2", "--agent", "stress", "--agent-session-id", fmt.Sprint("s2-", seq), "--seq", fmt.Sprint(seq * 1000)}},
		)
	}
	for round := 0; round < 3; round++ {
		// Start clean each round: the holder releases with a number above all of its own.
		rand.Shuffle(len(calls), func(i, j int) { calls[i], calls[j] = calls[j], calls[i] })
		var wg sync.WaitGroup
		sem := make(chan struct{}, 16)
		for _, c := range calls {
			wg.Add(1)
			go func(args []string) {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				cmd := exec.Command(tawBin, append([]string{"-L", name}, args...)...)
				cmd.Env = env
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("taw %v: %v: %s", args, err, out)
				}
			}(c.args)
		}
		wg.Wait()

		var got struct {
			State   string `json:"state"`
			Source  string `json:"source"`
			Message string `json:"message"`
			Session string `json:"agent_session_id"`
		}
		out := tmux("display-message", "-p", "-t", pane, "#{@agent_seq}")
		book := report.ParseBook(out)
		for source, want := range map[string]uint64{"holder": perSource, "s1": perSource, "s2": perSource * 1000} {
			if n, ok := book.Last(source); !ok || n != want {
				t.Errorf("round %d: seq book has %s at %d (%v), want %d; book %q", round, source, n, ok, want, out)
			}
		}
		cmd := exec.Command(tawBin, "-L", name, "pane", "get", pane)
		cmd.Env = env
		raw, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatalf("pane get: %v: %s", err, raw)
		}
		wantState := []string{"idle", "working", "blocked"}[perSource%3]
		if got.Source != "holder" || got.State != wantState || got.Message != fmt.Sprint("m", perSource) {
			t.Errorf("round %d: pane = %+v, want holder's last report (%s, m%d)", round, got, wantState, perSource)
		}
		if got.Session != fmt.Sprint("s1-", perSource) && got.Session != fmt.Sprint("s2-", perSource) {
			t.Errorf("round %d: session = %q, want the last session report of s1 or s2", round, got.Session)
		}
		// Clear the book for the next round.
		for _, s := range []string{"holder", "s1", "s2"} {
			tmux("set-option", "-p", "-t", pane, "@agent_seq", "[]")
			_ = s
		}
	}
}
