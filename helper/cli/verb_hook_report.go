package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/detect"
	"github.com/taw-tmux/taw/helper/filelock"
	"github.com/taw-tmux/taw/helper/hookreport"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/procinfo"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/urfave/cli/v2"
)

// taw hook report <agent> <event> is what taw's installed hook scripts start in the background
// for every event, with the agent's payload on stdin. The whole report is this one process: it
// takes the seq, reads the head of the payload, maps the event, drops itself when a newer report
// of the pane is waiting, finds the pane the report belongs to and writes it. It never prints,
// never fails, and gives up after hookReportLimit.
const (
	flagHookParent = "parent"
	flagHookOrder  = "order"

	hookReportLimit = 5 * time.Second
	hookReadLimit   = 2 * time.Second

	// maxPayloadPipe is what the pipe of a payload is widened to: Linux's limit for a user
	// (/proc/sys/fs/pipe-max-size).
	maxPayloadPipe = 1 << 20
)

type hookReportOptions struct {
	Agent  string
	Event  string
	Parent int // the process the hook script runs under ($PPID), 0 when unknown
	Order  int // the hook script's pid ($$): orders events whose taws start out of order
	Seq    uint64
}

func hookReportFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: flagHookParent, Usage: "the `pid` the hook runs under: its pane is trusted only when that process runs in it"},
		&cli.IntFlag{Name: flagHookOrder, Usage: "the hook script's own `pid`: of two events a moment apart, the higher is the later"},
	}
}

func (f *Factory) hookReport(c *cli.Context) error {
	// Taken first: it orders this event against the agent's next one.
	seq := uint64(f.Now().UnixNano())
	positional, _, _ := splitArgs(c)
	if len(positional) != 2 {
		return UsageErrorf("hook report takes an agent and an event: taw hook report <agent> <event>")
	}
	hookReportRun(c.Context, f, &hookReportOptions{Agent: positional[0], Event: positional[1], Parent: c.Int(flagHookParent), Order: c.Int(flagHookOrder), Seq: seq})
	return nil
}

// hookReportFast runs `taw hook report --parent <pid> --order <pid> <agent> <event>`, exactly
// what the installed hook scripts run at every agent event, without setting up the command
// line's verbs (a tenth of the report's start). It says false, having done nothing, for any
// other call, which goes the usual way.
func hookReportFast(ctx context.Context, f *Factory) bool {
	a := f.Args
	if len(a) != 9 || a[1] != "hook" || a[2] != "report" || a[3] != "--"+flagHookParent || a[5] != "--"+flagHookOrder ||
		strings.HasPrefix(a[7], "-") || strings.HasPrefix(a[8], "-") {
		return false
	}
	seq := uint64(f.Now().UnixNano())
	parent, err := strconv.Atoi(a[4])
	if err != nil {
		return false
	}
	order, err := strconv.Atoi(a[6])
	if err != nil {
		return false
	}
	hookReportRun(ctx, f, &hookReportOptions{Agent: a[7], Event: a[8], Parent: parent, Order: order, Seq: seq})
	return true
}

// hookReportRun reports one event. Every failure ends it quietly: a hook must never disturb
// the agent.
func hookReportRun(ctx context.Context, f *Factory, opts *hookReportOptions) {
	ctx, cancel := context.WithTimeout(ctx, hookReportLimit)
	defer cancel()
	head, drained := readHead(f.IO.In, hookreport.HeadBytes, hookReadLimit)
	// The rest of the payload is read to its end, so the agent's write never meets a closed pipe.
	defer func() {
		select {
		case <-drained:
		case <-ctx.Done():
		}
	}()
	pane := f.Getenv("TMUX_PANE")
	if !paneIDPattern.MatchString(pane) || !hookreport.Known(opts.Agent) {
		return
	}
	act := hookreport.Decide(hookreport.Event{Agent: opts.Agent, Name: opts.Event, Payload: hookreport.Parse(head), Getenv: f.Getenv})
	if act.Skip {
		return
	}
	rep := hookRecordReport(f, opts, act)
	dir := f.LockDir()

	unlock, memo, seq, ok := hookLock(ctx, dir, pane, opts.Seq, opts.Order)
	if !ok {
		return
	}
	rep.Seq = &seq
	// trusted: the hook runs in the pane it names, or that pane holds the session the report is
	// about (the first step of report.Route, without listing the panes). The session is asked
	// first: it reads nothing, where the process table is read a process at a time.
	trusted := func(p panestate.Pane) bool {
		rec := p.Record()
		return opts.Parent <= 1 || (act.SessionID != "" && rec.SessionAgent == rep.Agent && rec.SessionID == act.SessionID) ||
			procinfo.DescendsFrom(opts.Parent, p.PID)
	}
	var err error
	p, remembered := memo.Remembered(pane)
	if remembered && trusted(p) {
		// The usual case, in one tmux call while the pane is as the last report left it.
		var held bool
		_, p, held, err = panestate.ApplyRemembered(ctx, f.Tmux(), memo, p, keepResumeFlags(p, resumeOnPath(f, p, rep), act.KeepFlags), f.NowMillis)
		if held || (err != nil && !tmux.IsPaneNotFound(err)) {
			unlock()
			return
		}
	} else {
		p, err = panestate.ReadForWrite(ctx, f.Tmux(), pane)
	}
	switch {
	case err == nil && trusted(p):
		_, _ = panestate.ApplyRead(ctx, f.Tmux(), memo, p, keepResumeFlags(p, resumeOnPath(f, p, rep), act.KeepFlags), f.NowMillis)
		unlock()
		return
	case err != nil && !tmux.IsPaneNotFound(err):
		unlock()
		return
	}
	target, ok := hookRoute(ctx, f, opts, act, pane)
	if ok && target == pane && err == nil {
		_, _ = panestate.ApplyRead(ctx, f.Tmux(), memo, p, keepResumeFlags(p, resumeOnPath(f, p, rep), act.KeepFlags), f.NowMillis)
	}
	unlock()
	if !ok || target == pane {
		return
	}
	unlock, memo, seq, ok = hookLock(ctx, dir, target, seq, opts.Order)
	if !ok {
		return
	}
	rep.Seq = &seq
	defer unlock()
	if p, err = panestate.ReadForWrite(ctx, f.Tmux(), target); err == nil {
		_, _ = panestate.ApplyRead(ctx, f.Tmux(), memo, p, keepResumeFlags(p, resumeOnPath(f, p, rep), act.KeepFlags), f.NowMillis)
	}
}

// hookRecordReport is the report an action makes: --source integration:<agent>, this event's
// seq, the message (every state report carries one, so no stale text stays), the session when
// it is valid and the resume command when it is well formed (resumeOnPath checks its program
// against the pane).
func hookRecordReport(f *Factory, opts *hookReportOptions, act hookreport.Action) report.Report {
	seq := opts.Seq
	rep := report.Report{Source: "integration:" + opts.Agent, Agent: agents.Canonical(opts.Agent), Seq: &seq}
	if act.Release {
		rep.Verb = report.ReleaseAgent
		return rep
	}
	rep.Verb, rep.State = report.ReportAgent, act.State
	msg := cleanMessage(act.Message)
	rep.Message = &msg
	if sid, err := checkText(flagSessionID, act.SessionID, maxSessionIDBytes); err == nil {
		rep.SessionID = &sid
		if act.SessionStart != "" {
			if start, err := checkText(flagSessionStart, act.SessionStart, maxSessionStartBytes); err == nil {
				rep.SessionStart = &start
			}
		}
		if len(act.Resume) > 0 && report.ValidateResume(act.Resume, nil) == nil {
			rep.Resume = act.Resume
		}
	}
	return rep
}

// resumeOnPath is rep without its resume command when the command's program is not on PATH
// (taw would refuse the whole report otherwise). The pane holding a command of the same
// program for the same source and session is proof enough: its program was found when that
// command was reported, and the agent runs it still. PATH is searched only otherwise.
func resumeOnPath(f *Factory, p panestate.Pane, rep report.Report) report.Report {
	if len(rep.Resume) == 0 {
		return rep
	}
	rec := p.Record()
	if rec.ResumeSource == rep.Source && rep.SessionID != nil && rec.SessionID == *rep.SessionID && len(rec.Resume) > 0 && rec.Resume[0] == rep.Resume[0] {
		return rep
	}
	if _, err := f.LookPath(rep.Resume[0]); err != nil {
		rep.Resume = nil
	}
	return rep
}

// keepResumeFlags copies into the report's command the options named in keep (with their
// values) from the command the pane holds for the same source and session: Claude Code names
// its model only when the session starts.
func keepResumeFlags(p panestate.Pane, rep report.Report, keep []string) report.Report {
	if len(keep) == 0 || len(rep.Resume) == 0 || rep.SessionID == nil {
		return rep
	}
	rec := p.Record()
	if rec.ResumeSource != rep.Source || rec.SessionID != *rep.SessionID {
		return rep
	}
	argv := append([]string{}, rep.Resume...)
	for _, flag := range keep {
		for i := 0; i+1 < len(rec.Resume); i++ {
			if rec.Resume[i] == flag {
				argv = append(argv, flag, rec.Resume[i+1])
				break
			}
		}
	}
	rep.Resume = argv
	return rep
}

// hookRoute finds the pane a report belongs to when the hook's process does not run in the
// pane its $TMUX_PANE names, own (see report.Route): one tmux call for the panes, and the process table of the panes
// only when neither the session nor the hook's parent names one.
func hookRoute(ctx context.Context, f *Factory, opts *hookReportOptions, act hookreport.Action, own string) (string, bool) {
	out, err := f.Tmux().Output(ctx, "list-panes", "-a", "-F", tmux.Row("#{pane_id}", "#{pane_pid}", "#{pane_dead}", tmux.Text("@agent_session_id"), tmux.Text("@agent_session_agent")))
	if err != nil {
		return "", false
	}
	var panes []report.PaneSeen
	for _, row := range strings.Split(out, "\n") {
		fields := tmux.DecodeRow(row)
		if len(fields) != 5 || fields[2] == "1" {
			continue
		}
		pid, _ := strconv.Atoi(fields[1])
		panes = append(panes, report.PaneSeen{ID: fields[0], PID: pid, SessionID: fields[3], SessionAgent: fields[4]})
	}
	agent := agents.Canonical(opts.Agent)
	runs := func(panePID int) bool {
		leader, group, shellInFront, err := procinfo.Foreground(panePID)
		if err != nil || (shellInFront && len(group) <= 1 && leader.PID == panePID && isShellName(leader.Comm)) {
			return false
		}
		id, _ := detect.Identify(leader, group)
		return id == agent
	}
	return report.Route(report.RouteQuery{Agent: agent, SessionID: act.SessionID, SessionStart: act.SessionStart, Parent: opts.Parent},
		own, panes, procinfo.DescendsFrom, runs)
}

func isShellName(comm string) bool {
	switch comm {
	case "sh", "bash", "zsh", "fish", "dash", "ksh", "mksh", "tcsh", "csh":
		return true
	}
	return false
}

// hookLock takes the pane's lock for a report, unless a newer report of the pane is waiting:
// only the latest state of a burst is written. The newest report waiting is kept in the lock
// file itself (its seq and its order, the pid of the hook script that started it), which only
// taw writes, opened without following a link, and changed under a record lock of its own.
//
// A hook's seq is taken when its taw starts, and two taws forked a moment apart may start in
// the other order: within orderWindow of each other the script's pid decides which is newer
// (the agent runs its hooks one after the other, so a later event has the higher pid), and a
// report that is newer by its pid but not by its clock takes the seq after the one recorded.
// It returns the seq the report carries. ok false: dropped, or the wait ran out.
func hookLock(ctx context.Context, dir, paneID string, seq uint64, order int) (unlock func(), memo panestate.Memo, used uint64, ok bool) {
	if err := os.MkdirAll(dir, 0o700); err != nil || !privateTo(dir, true) {
		return nil, memo, 0, false
	}
	file, err := filelock.OpenFile(panestate.LockPath(dir, paneID), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, memo, 0, false
	}
	// The seq is written into this file: it must be the user's own, not one planted for them.
	if fi, err := file.Stat(); err != nil || !ownedPrivately(fi, false) {
		file.Close()
		return nil, memo, 0, false
	}
	mine := waiting{seq: seq, order: order}
	claimed := false
	// check records this report as the latest waiting, or says a newer one is.
	check := func() bool {
		if !markLock(file, true) {
			return false
		}
		defer markLock(file, false)
		stored := readWaiting(file)
		if stored.newerThan(mine) {
			return false
		}
		if !claimed {
			if stored.seq >= mine.seq {
				mine.seq = stored.seq + 1
			}
			if _, err := file.WriteAt([]byte(mine.String()), 0); err != nil {
				return false
			}
			claimed = true
		}
		return true
	}
	if !check() {
		file.Close()
		return nil, memo, 0, false
	}
	wait := time.Millisecond
	for {
		err := syscall.Flock(int(file.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if err != syscall.EWOULDBLOCK && err != syscall.EINTR {
			file.Close()
			return nil, memo, 0, false
		}
		select {
		case <-ctx.Done():
			file.Close()
			return nil, memo, 0, false
		case <-time.After(wait):
		}
		if !check() {
			file.Close()
			return nil, memo, 0, false
		}
		wait = min(2*wait, 20*time.Millisecond)
	}
	release := func() {
		_ = syscall.Flock(int(file.Fd()), syscall.LOCK_UN)
		file.Close()
	}
	if !check() {
		release()
		return nil, memo, 0, false
	}
	return release, panestate.MemoIn(file), mine.seq, true
}

// markLock takes (or lets go of) the record lock that guards the waiting report in the lock
// file: a byte past its end, apart from the flock writers queue on.
func markLock(file *os.File, take bool) bool {
	lk := syscall.Flock_t{Type: syscall.F_UNLCK, Whence: 0, Start: 1 << 20, Len: 1}
	cmd := syscall.F_SETLK
	if take {
		lk.Type, cmd = syscall.F_WRLCK, syscall.F_SETLKW
	}
	for {
		err := syscall.FcntlFlock(file.Fd(), cmd, &lk)
		if err != syscall.EINTR {
			return err == nil
		}
	}
}

// orderWindow is how far apart (in seq, nanoseconds) two reports are ordered by the pids of
// their scripts rather than by their clocks.
const orderWindow = 200 * uint64(time.Millisecond)

// maxPidGap is how far apart the pids of two scripts in orderWindow can be, unless the pid
// counter wrapped between them.
const maxPidGap = 1 << 14

// waiting is the newest report of a pane recorded in its lock file.
type waiting struct {
	seq   uint64
	order int // the hook script's pid, 0 when unknown
}

func (w waiting) String() string { return fmt.Sprintf("%020d %010d\n", w.seq, w.order) }

// newerThan says whether w is a newer report than o.
func (w waiting) newerThan(o waiting) bool {
	if w.order == o.order && w.seq == o.seq {
		return false
	}
	gap := w.seq - o.seq
	if o.seq > w.seq {
		gap = o.seq - w.seq
	}
	// Pids are near each other unless the pid counter wrapped between the two: far fewer than
	// maxPidGap processes start within orderWindow, and Linux's smallest pid counter (32768)
	// wraps to a gap of more.
	pidGap := w.order - o.order
	if pidGap < 0 {
		pidGap = -pidGap
	}
	if w.order > 0 && o.order > 0 && w.order != o.order && gap < orderWindow && pidGap < maxPidGap {
		return w.order > o.order
	}
	return w.seq > o.seq
}

// readWaiting is the report a lock file records, zero when none.
func readWaiting(file *os.File) waiting {
	var b [40]byte
	n, _ := file.ReadAt(b[:], 0)
	fields := strings.Fields(string(b[:n]))
	var w waiting
	if len(fields) > 0 {
		w.seq, _ = strconv.ParseUint(fields[0], 10, 64)
	}
	if len(fields) > 1 {
		w.order, _ = strconv.Atoi(fields[1])
	}
	return w
}

// readHead reads up to limit bytes of r, waiting at most wait, and then the rest of r to its
// end in the background; drained is closed once r is done.
func readHead(r io.Reader, limit int, wait time.Duration) (head []byte, drained <-chan struct{}) {
	done := make(chan struct{})
	if r == nil {
		close(done)
		return nil, done
	}
	widenPipe(r)
	// A payload a pipe holds already (the usual case) is read here: a reading goroutine would
	// cost a thread's wake-up for each read.
	if f, ok := r.(interface{ Fd() uintptr }); ok {
		if head, ended, ok := readHeadNow(int(f.Fd()), limit, wait); ok {
			if ended {
				close(done)
				return head, done
			}
			go func() {
				defer close(done)
				drain(r)
			}()
			return head, done
		}
	}
	type result struct{ b []byte }
	got := make(chan result, 1)
	go func() {
		defer close(done)
		buf := make([]byte, limit)
		n, _ := io.ReadFull(r, buf)
		got <- result{buf[:n]}
		if n == limit {
			drain(r)
		}
	}()
	select {
	case res := <-got:
		return res.b, done
	case <-time.After(wait):
		return nil, done
	}
}

// drain reads r to its end, in reads of the whole buffer: io.Discard's own reads are of 8 KiB.
func drain(r io.Reader) {
	_, _ = io.CopyBuffer(struct{ io.Writer }{io.Discard}, r, make([]byte, maxPayloadPipe/4))
}

// privateTo says whether path is the user's own and writable by no one else; a hook writes
// nowhere another local user could have prepared.
func privateTo(path string, dir bool) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.IsDir() == dir && ownedPrivately(fi, dir)
}

func ownedPrivately(fi os.FileInfo, dir bool) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) != os.Getuid() || fi.Mode().Perm()&0o022 != 0 {
		return false
	}
	return dir == fi.IsDir() && (dir || fi.Mode().IsRegular())
}
