package cli

import (
	"context"
	"os"
	"strconv"
	"strings"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/watch"
	"github.com/urfave/cli/v2"
)

// The write verbs: taw pane report-agent, report-agent-session and release-agent. They take
// herdr's arguments, flags on either side of the pane.
const (
	flagSource       = "source"
	flagAgent        = "agent"
	flagState        = "state"
	flagMessage      = "message"
	flagSeq          = "seq"
	flagSessionID    = "agent-session-id"
	flagSessionPath  = "agent-session-path"
	flagSessionStart = "session-start-source"
)

// Limits on what a report carries besides the contract's own (package report holds them).
const (
	maxSourceBytes       = report.MaxSourceBytes
	maxAgentBytes        = report.MaxAgentBytes
	maxMessageBytes      = report.MaxMessageBytes
	maxSessionIDBytes    = report.MaxSessionIDBytes
	maxSessionPathBytes  = report.MaxSessionPathBytes
	maxSessionStartBytes = report.MaxSessionStartBytes
)

type reportOptions struct {
	Pane   string
	Report report.Report
}

func reportFlags(verb report.Verb) []cli.Flag {
	flags := []cli.Flag{
		&cli.StringFlag{Name: flagSource, Usage: "your integration's `<name>`, the same from run to run (at most 128 bytes)"},
		&cli.StringFlag{Name: flagAgent, Usage: "the agent's `<name>`, as people see it"},
	}
	if verb == report.ReportAgent {
		flags = append(flags,
			&cli.StringFlag{Name: flagState, Usage: "the `<state>`: idle, working, blocked or unknown"},
			&cli.StringFlag{Name: flagMessage, Usage: "a short `<text>` shown with the state (at most 512 bytes are kept)"},
		)
	}
	flags = append(flags, &cli.StringFlag{Name: flagSeq, Usage: "a number `<n>` that grows with every report from your source"})
	if verb != report.ReleaseAgent {
		flags = append(flags,
			&cli.StringFlag{Name: flagSessionID, Usage: "the agent's own session `<id>`"},
			&cli.StringFlag{Name: flagSessionPath, Usage: "the agent's session file `<path>`"},
		)
	}
	if verb == report.ReportSession {
		flags = append(flags, &cli.StringFlag{Name: flagSessionStart, Usage: "`<why>` the session started: startup, resume, clear, compact, new or fork"})
	}
	return flags
}

// reportVerb declares one of the write verbs; they differ in their flags (reportFlags).
func reportVerb(f *Factory, kind report.Verb, name, argsUsage, usage string) *cli.Command {
	return verb(name, argsUsage, usage, func(c *cli.Context) error {
		opts, err := parseReport(c, kind)
		if err != nil {
			return err
		}
		return reportRun(c.Context, f, opts)
	}, reportFlags(kind)...)
}

func parseReport(c *cli.Context, verb report.Verb) (*reportOptions, error) {
	name := c.Command.Name
	positional, after, _ := splitArgs(c)
	if len(positional) == 0 {
		return nil, UsageErrorf("%s needs a pane: taw pane %s <pane> --source <name> --agent <name> ...", name, name)
	}
	if len(positional) > 1 {
		return nil, UsageErrorf("%s takes one pane, got %q too: put a resume command after --", name, positional[1])
	}
	if verb == report.ReleaseAgent && len(after) > 0 {
		return nil, UsageErrorf("release-agent takes no command after --")
	}
	rep := report.Report{Verb: verb, Resume: after}
	for _, req := range []string{flagSource, flagAgent} {
		if !c.IsSet(req) {
			return nil, UsageErrorf("%s needs --%s", name, req)
		}
	}
	var err error
	if rep.Source, err = checkText(flagSource, c.String(flagSource), maxSourceBytes); err != nil {
		return nil, err
	}
	agent, err := checkText(flagAgent, c.String(flagAgent), maxAgentBytes)
	if err != nil {
		return nil, err
	}
	rep.Agent = agents.Canonical(agent)
	if verb == report.ReportAgent {
		if !c.IsSet(flagState) {
			return nil, UsageErrorf("report-agent needs --state idle, working, blocked or unknown")
		}
		rep.State = c.String(flagState)
		if !report.ValidState(rep.State) {
			return nil, Errorf(coded.InvalidArgument, "invalid --state %q (expected: idle|working|blocked|unknown)", rep.State)
		}
		if c.IsSet(flagMessage) {
			m := cleanMessage(c.String(flagMessage))
			rep.Message = &m
		}
	}
	if c.IsSet(flagSeq) {
		n, err := strconv.ParseUint(strings.TrimSpace(c.String(flagSeq)), 10, 64)
		if err != nil {
			return nil, Errorf(coded.InvalidArgument, "invalid --seq %q: give a whole number from 0 to 18446744073709551615, such as the nanoseconds since the epoch", c.String(flagSeq))
		}
		rep.Seq = &n
	}
	if rep.SessionID, err = optionalSession(c, flagSessionID, maxSessionIDBytes); err != nil {
		return nil, err
	}
	if rep.SessionPath, err = optionalSession(c, flagSessionPath, maxSessionPathBytes); err != nil {
		return nil, err
	}
	if rep.SessionStart, err = optionalText(c, flagSessionStart, maxSessionStartBytes); err != nil {
		return nil, err
	}
	return &reportOptions{Pane: positional[0], Report: rep}, nil
}

// checkText validates a required text flag: 1 to max bytes of UTF-8, no control characters.
func checkText(flag, v string, max int) (string, error) {
	t, err := report.CheckText(v, max)
	if err != nil {
		return "", Errorf(coded.InvalidArgument, "--%s %v", flag, err)
	}
	return t, nil
}

func optionalText(c *cli.Context, flag string, max int) (*string, error) {
	if !c.IsSet(flag) {
		return nil, nil
	}
	t, err := report.CheckOptionalText(c.String(flag), max)
	if err != nil {
		return nil, Errorf(coded.InvalidArgument, "--%s %v", flag, err)
	}
	return &t, nil
}

// optionalSession is optionalText for a session id or path (report.CheckSession).
func optionalSession(c *cli.Context, flag string, max int) (*string, error) {
	if !c.IsSet(flag) {
		return nil, nil
	}
	t, err := report.CheckSession(c.String(flag), max)
	if err != nil {
		return nil, Errorf(coded.InvalidArgument, "--%s %v", flag, err)
	}
	return &t, nil
}

// cleanMessage keeps a message printable and short (see report.CleanMessage).
func cleanMessage(m string) string { return report.CleanMessage(m) }

type reportReply struct {
	OK      bool   `json:"ok"`
	InOrder bool   `json:"in_order"`
	Code    string `json:"code,omitempty"`
	// Kept false and Reason: taken, but the watcher clears the agent at its next look.
	Kept   *bool  `json:"kept,omitempty"`
	Reason string `json:"reason,omitempty"`
}

func reportRun(ctx context.Context, f *Factory, opts *reportOptions) error {
	rep := opts.Report
	// Nothing of a report is applied when its command breaks the rules, so it is checked first.
	if err := report.ValidateResume(rep.Resume, func(name string) bool {
		_, err := f.LookPath(name)
		return err == nil
	}); err != nil {
		return Errorf(coded.InvalidResumeArgv, "%s", err)
	}
	paneID, err := f.ResolvePane(ctx, opts.Pane)
	if err != nil {
		return err
	}
	var written panestate.Pane
	out, err := panestate.ApplyReport(ctx, f.Tmux(), f.LockDir(), paneID, rep, f.NowMillis, panestate.Written(&written))
	if err != nil {
		return err
	}
	reply := reportReply{OK: true, InOrder: out.InOrder, Code: out.Code}
	if out.InOrder && rep.Verb != report.ReleaseAgent && written.ID != "" {
		if kept, why := watch.ReportLasts(written, os.Getpid()); !kept {
			reply.Kept, reply.Reason = &kept, why
		}
	}
	return writeJSONLine(f.IO.Out, reply)
}
