package panestate

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/filelock"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxfmt"
)

// A report is a read and a write of the pane's options, and each tmux call wakes the server and
// waits for it. So a writer remembers the pane as it left it (its id, its first process and
// every option), in the pane's lock file after the lock's own record, and the next writer under
// the lock computes its write from that memo and sends it guarded, in one call: tmux applies it
// only while the pane is exactly as remembered, and otherwise writes nothing and prints the pane
// as it is. A stale memo (the watcher wrote, a user set an option, a new server reused the id)
// costs one more call, never a wrong write: the write is a function of the options alone, and
// the guard compares every one of them.

// forWrite is what a writer reads of a pane: every option, which Commit needs, and the pane's
// first process, by which a hook tells whether it runs in the pane. It leaves out the fields
// tmux reads from /proc.
var forWrite = Selection{Fields: []string{"pane_pid"}, Options: Options}

// memoOffset is where the memo starts in the lock file: past the waiting report a hook keeps
// at its start.
const (
	memoOffset   = 64
	memoMagic    = "taw-memo-1\n"
	maxMemoBytes = 64 << 10
)

// ReadForWrite reads what a writer needs of one pane in one tmux call.
func ReadForWrite(ctx context.Context, c *tmux.Client, paneID string) (Pane, error) {
	out, err := c.Output(ctx, "display-message", "-p", "-t", paneID, "-F", forWrite.Format())
	if err != nil {
		return Pane{}, err
	}
	return parseOwnRow(out, paneID)
}

func parseOwnRow(row, paneID string) (Pane, error) {
	p, err := forWrite.ParseRow(row)
	if err != nil {
		return Pane{}, err
	}
	if p.ID != paneID {
		// display-message falls back to the current pane for a target it cannot resolve.
		return Pane{}, &tmux.Error{Code: tmux.CodePaneNotFound, Stderr: "can't find pane: " + paneID}
	}
	return p, nil
}

// Memo is where a pane's memo is kept: the pane's lock file, open while its writer holds the
// lock (one descriptor for the lock and the memo). The zero Memo keeps nothing.
type Memo struct{ file *os.File }

// MemoIn keeps the memo in the lock file f, which the caller holds locked and closes.
func MemoIn(f *os.File) Memo { return Memo{file: f} }

// lockWithMemo takes a lock file the way Lock does, the memo kept in the file it holds open.
func lockWithMemo(wait time.Duration) func(path string) (Memo, func(), error) {
	return func(path string) (Memo, func(), error) {
		f, unlock, err := filelock.LockOpen(path, wait)
		return MemoIn(f), unlock, err
	}
}

// Remembered is the pane as the last writer under its lock left it; ok false when there is no
// memo to go by. The caller holds the pane's lock.
func (m Memo) Remembered(paneID string) (p Pane, ok bool) {
	if m.file == nil {
		return Pane{}, false
	}
	b, err := io.ReadAll(io.NewSectionReader(m.file, memoOffset, maxMemoBytes))
	if err != nil {
		return Pane{}, false
	}
	row, found := strings.CutPrefix(string(b), memoMagic)
	if !found {
		return Pane{}, false
	}
	row, found = strings.CutSuffix(row, "\n")
	if !found {
		return Pane{}, false
	}
	// The memo holds the values as they are, not as tmux prints them.
	p, err = forWrite.fieldsParser()(strings.Split(row, sep))
	return p, err == nil && p.ID == paneID
}

// Remember keeps p as the pane's memo, for the next writer. The caller holds the pane's lock,
// whose folder is private (the lock checked it). A memo that cannot be kept is no error: the next
// writer reads the pane instead.
func (m Memo) Remember(p Pane) {
	f := m.file
	if f == nil {
		return
	}
	row := memoRow(p)
	if len(row) > maxMemoBytes-len(memoMagic) || strings.Contains(row[:len(row)-1], "\n") {
		_ = f.Truncate(memoOffset) // too long to keep: none rather than a stale one
		return
	}
	if _, err := f.WriteAt([]byte(memoMagic+row), memoOffset); err == nil {
		_ = f.Truncate(int64(memoOffset + len(memoMagic) + len(row)))
	}
}

// memoRow is p as forWrite prints it, ended by a newline.
func memoRow(p Pane) string {
	names := forWrite.Names()
	vals := make([]string, len(names))
	for i, n := range names {
		switch n {
		case "pane_id":
			vals[i] = p.ID
		case "pane_pid":
			vals[i] = fmt.Sprint(p.PID)
		default:
			vals[i] = p.Options[n]
		}
	}
	return strings.Join(vals, sep) + "\n"
}

// CommitRemembered is Commit for a pane taken from its memo, in one tmux call: when the pane is
// still as remembered, rec is written (nil: nothing is, the report changed nothing) and held is
// true; otherwise nothing is written and p is the pane as it is now, to decide again from.
func CommitRemembered(ctx context.Context, c *tmux.Client, was Pane, rec *report.Record, nowMillis int64, extra map[string]string) (p Pane, held bool, err error) {
	next, cmds := was.Options, []tmux.Cmd(nil)
	if rec != nil {
		next, cmds = commitPlan(was, *rec, nowMillis, extra)
	}
	call, ok := guardedCall(was, cmds)
	if !ok {
		// Too long for one call guarded: read, and let the caller write as usual.
		p, err = ReadForWrite(ctx, c, was.ID)
		return p, false, err
	}
	out, err := c.Run(ctx, call)
	if err != nil {
		return was, false, err
	}
	if out == "" {
		was.Options = next
		return was, true, nil
	}
	p, err = parseOwnRow(strings.TrimSuffix(out, "\n"), was.ID)
	return p, false, err
}

// guardedCall is the one tmux command that runs cmds only while the pane is as was, and prints
// the pane as forWrite reads it otherwise. ok false: it does not fit one call.
func guardedCall(was Pane, cmds []tmux.Cmd) (tmux.Cmd, bool) {
	now := forWrite.Format()
	// The pane's id is in the comparison too: if-shell's target may fall back to another pane.
	guard := "#{==:" + plainVariables(forWrite.Names()) + "," + tmuxfmt.Operand(strings.TrimSuffix(memoRow(was), "\n")) + "}"
	var then []string
	for _, cmd := range cmds {
		words := make([]string, len(cmd))
		for i, w := range cmd {
			words[i] = tmuxfmt.Word(w)
		}
		then = append(then, strings.Join(words, " "))
	}
	call := tmux.Cmd{"if-shell", "-F", "-t", was.ID, guard, strings.Join(then, " ; "),
		"display-message -p -t " + tmuxfmt.Word(was.ID) + " -F " + tmuxfmt.QuoteString(now)}
	return call, tmux.ArgvBytes(append([]string{"tmux"}, call...)) <= tmux.MaxCommandBytes-64
}
