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

// memoOffset is where the memo starts in the lock file: past the waiting report LatestOnly keeps
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
	call, ok := guardedCall(was, cmds, "")
	if !ok {
		// Too long for one call guarded: read, and let the caller write as usual.
		p, err = ReadForWrite(ctx, c, was.ID)
		return p, false, err
	}
	out, err := c.Run(ctx, call...)
	if err != nil {
		return was, false, err
	}
	if strings.TrimSuffix(out, "\n") == "" {
		was.Options = next
		return was, true, nil
	}
	p, err = parseOwnRow(strings.TrimSuffix(out, "\n"), was.ID)
	return p, false, err
}

// guardedCall is the tmux call that runs cmds only while the pane is as was, and prints the
// pane as forWrite reads it otherwise. ok false: it does not fit
// one call, or a command is not one it can guard.
//
// The guard is a format, not if-shell: if-shell -F parses its command string in the server,
// and tmux 3.3a to 3.7c never free the parsed list (about 500 bytes a command, for as long as
// the server runs). So the comparison goes once into the pane option OptGuard, every write
// keeps the value it had unless OptGuard is 1, and OptGuard goes again: nothing is parsed.
//
// mark is what the call prints, on a line of its own, when cmds ran; it holds no % (see
// CommitGuarded).
func guardedCall(was Pane, cmds []tmux.Cmd, mark string) ([]tmux.Cmd, bool) {
	now := forWrite.Format()
	// The pane's id is in the comparison too: a target may fall back to another pane. The values
	// are compared plain, inside tmux, as memoRow writes them.
	guard := "#{==:" + plainVariables(forWrite.Names()) + "," + tmuxfmt.Operand(strings.TrimSuffix(memoRow(was), "\n")) + "}"
	call := []tmux.Cmd{{"set-option", "-p", "-t", was.ID, "-F", OptGuard, guard}}
	for _, cmd := range cmds {
		g, ok := guarded(was.ID, cmd)
		if !ok {
			return nil, false
		}
		call = append(call, g)
	}
	call = append(call,
		tmux.Cmd{"display-message", "-p", "-t", was.ID, "-F", "#{?#{" + OptGuard + "}," + tmuxfmt.Operand(mark) + "," + now + "}"},
		tmux.Cmd{"set-option", "-p", "-u", "-t", was.ID, OptGuard})
	return call, tmux.ArgvBytes(append([]string{"tmux"}, flatten(call)...)) <= tmux.MaxCommandBytes-64
}

// guarded is cmd taking effect only while OptGuard is 1 on pane: a pane option's value is
// chosen by a format (an unset becomes an empty value, which reads the same), the generation of
// a signal moves only then. wait-for cannot be made conditional; a waiter woken for nothing
// finds the generation unmoved.
func guarded(pane string, cmd tmux.Cmd) (tmux.Cmd, bool) {
	keep := func(opt, v string) string {
		return "#{?#{" + OptGuard + "}," + v + ",#{" + opt + "}}"
	}
	switch {
	case len(cmd) == 6 && cmd[0] == "set-option" && cmd[1] == "-p" && cmd[2] == "-t" && cmd[3] == pane:
		return tmux.Cmd{"set-option", "-p", "-t", pane, "-F", cmd[4], keep(cmd[4], tmuxfmt.Operand(cmd[5]))}, true
	case len(cmd) == 6 && cmd[0] == "set-option" && cmd[1] == "-p" && cmd[2] == "-u" && cmd[3] == "-t" && cmd[4] == pane:
		return tmux.Cmd{"set-option", "-p", "-t", pane, "-F", cmd[5], keep(cmd[5], "")}, true
	case len(cmd) == 4 && cmd[0] == "set-option" && cmd[1] == "-gqF":
		// -t: the format is expanded in the pane, where OptGuard is.
		return tmux.Cmd{"set-option", "-gqF", "-t", pane, cmd[2], keep(cmd[2], cmd[3])}, true
	case len(cmd) == 3 && cmd[0] == "wait-for" && cmd[1] == "-S":
		return cmd, true
	}
	return nil, false
}

func flatten(cmds []tmux.Cmd) []string {
	var all []string
	for _, c := range cmds {
		all = append(append(all, c...), ";")
	}
	return all
}

// A Guarded is one pane's write for CommitGuarded: the pane as its writer read it (every option
// known), and what to write.
type Guarded struct {
	Was   Pane
	Rec   report.Record
	Extra map[string]string
}

// CommitGuarded writes many panes, each only while it is as its writer read it, several panes to
// a tmux call: a watcher naming a thousand agents at once makes tens of calls, not thousands.
// written[i] is the pane as written, or nil when it was not (it changed since it was read, it
// closed, it was read without all its options, or its write fits no call): the caller writes
// those one by one. calls is the tmux calls made.
func CommitGuarded(ctx context.Context, c *tmux.Client, ws []Guarded, nowMillis int64) (written []*Pane, calls int) {
	written = make([]*Pane, len(ws))
	type group struct {
		i    int
		cmds []tmux.Cmd
		next map[string]string
		mark string
	}
	var batch []group
	size := 0
	flush := func() {
		if len(batch) == 0 {
			return
		}
		var cmds []tmux.Cmd
		for _, g := range batch {
			cmds = append(cmds, g.cmds...)
		}
		calls++
		// One call: a pane that closed stops the rest of the call, whose panes stay unwritten.
		out, _ := c.Run(ctx, cmds...)
		done := map[string]bool{}
		for _, line := range strings.Split(out, "\n") {
			done[strings.TrimSpace(line)] = true
		}
		for _, g := range batch {
			if done[g.mark] {
				p := ws[g.i].Was
				p.Options = g.next
				written[g.i] = &p
			}
		}
		batch, size = nil, 0
	}
	// What one call may carry, less room for the client's global flags.
	const room = tmux.MaxCommandBytes - 512
	for i, w := range ws {
		if w.Was.partial {
			continue
		}
		next, cmds := commitPlan(w.Was, w.Rec, nowMillis, w.Extra)
		// No %: display-message passes its format through strftime.
		mark := "taw-written:" + strings.TrimPrefix(w.Was.ID, "%")
		call, ok := guardedCall(w.Was, cmds, mark)
		if !ok {
			continue
		}
		cost := 0
		for _, cmd := range call {
			cost += tmux.ArgvBytes(tmuxfmt.EscapeArgs(cmd)) + 2
		}
		if cost > room {
			continue
		}
		if size+cost > room {
			flush()
		}
		batch = append(batch, group{i: i, cmds: call, next: next, mark: mark})
		size += cost
	}
	flush()
	return written, calls
}
