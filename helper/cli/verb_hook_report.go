package cli

import (
	"context"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/detect"
	"github.com/taw-tmux/taw/helper/hookreport"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/procinfo"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/shellquote"
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
	// Under the agent's hook daemon neither $TMUX_PANE nor the process tree says whose report it
	// is (the daemon keeps the first Codex's environment and may be its child): its session does.
	daemon := hookreport.HasHookDaemon(opts.Agent) &&
		procinfo.AncestorWhere(opts.Parent, func(argv []string) bool { return hookreport.HookDaemon(opts.Agent, argv) }) > 0
	// trusted: the hook runs in the pane it names, or that pane holds the session the report is
	// about (the first step of report.Route, without listing the panes). The session is asked
	// first: it reads nothing, where the process table is read a process at a time.
	trusted := func(p panestate.Pane) bool {
		rec := p.Record()
		if act.SessionID != "" && rec.SessionAgent == rep.Agent && rec.SessionID == act.SessionID {
			return true
		}
		return !daemon && (opts.Parent <= 1 || procinfo.DescendsFrom(opts.Parent, p.PID))
	}
	route := func(ctx context.Context) (string, bool) { return hookRoute(ctx, f, opts, act, pane, daemon) }
	forPane := func(p panestate.Pane, rep report.Report) report.Report {
		return keepResumeFlags(p, resumeOnPath(f, p, rep), act.KeepFlags)
	}
	_, _ = panestate.ApplyReport(ctx, f.Tmux(), f.LockDir(), pane, rep, f.NowMillis,
		panestate.LatestOnly(opts.Order), panestate.ForPane(forPane), panestate.Routed(trusted, route))
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
	rep.Message, rep.MessageHint = &msg, act.MessageHint
	// A session id that starts with - would become an option of the resume command: the report
	// keeps no session then (a hook never fails the agent).
	if sid, err := checkText(flagSessionID, act.SessionID, maxSessionIDBytes); err == nil && !strings.HasPrefix(sid, "-") {
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
//
// Under the agent's hook daemon (daemon true) the hook's parent and $TMUX_PANE are the daemon's:
// neither places the report.
func hookRoute(ctx context.Context, f *Factory, opts *hookReportOptions, act hookreport.Action, own string, daemon bool) (string, bool) {
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
		if err != nil || (shellInFront && len(group) <= 1 && leader.PID == panePID && shellquote.IsShell(leader.Comm)) {
			return false
		}
		id, _ := detect.Identify(leader, group)
		return id == agent
	}
	parent := opts.Parent
	if daemon {
		own, parent = "", 0
	}
	return report.Route(report.RouteQuery{Agent: agent, SessionID: act.SessionID, SessionStart: act.SessionStart, Parent: parent},
		own, panes, procinfo.DescendsFrom, runs)
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
