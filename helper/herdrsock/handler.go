package herdrsock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/taw-tmux/taw/helper/integration"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/procinfo"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/watch"
)

// Handler answers requests for one tmux server.
type Handler struct {
	Tmux      *tmux.Client
	LockDir   string
	NowMillis func() int64
	Version   string // taw's, answered to ping
	Logf      func(format string, args ...any)

	ttys ttyPanes
}

func (h *Handler) logf(format string, args ...any) {
	if h.Logf != nil {
		h.Logf(format, args...)
	}
}

// Methods herdr's reporters send that only feed herdr's display (titles, token counts, the last
// prompt): nothing in taw shows them, and the reporters never read the answer beyond "it
// arrived", so they get ok and change nothing.
var displayOnly = map[string]bool{
	"pane.report_metadata":       true,
	"workspace.report_metadata":  true,
	"pane.report_prompt":         true,
	"pane.report_agent_activity": true,
}

// Methods of herdr's API that taw does not serve: a client that calls one acts on the answer
// (it moves, lays out, installs), so it is told plainly rather than misled by an ok.
// docs/orchestration.md lists each with the reason.
var notServed = map[string]bool{
	"server.stop": true, "server.live_handoff": true, "server.reload_config": true,
	"server.agent_manifests": true, "server.update_agent_manifests": true, "server.reload_agent_manifests": true,
	"client.window_title.set": true, "client.window_title.clear": true,
	"session.snapshot": true,
	"workspace.move":   true, "workspace.move_block": true,
	"tab.move":  true,
	"pane.move": true, "pane.layout": true, "pane.neighbor": true, "pane.edges": true,
	"pane.focus_direction": true, "pane.input.set": true, "pane.clear_agent_authority": true,
	"pane.graphics.info": true, "pane.graphics.set": true, "pane.graphics.clear": true, "pane.graphics.stream": true,
	"popup.close":   true,
	"layout.export": true, "layout.apply": true, "layout.set_split_ratio": true,
	"agent.explain": true, "agent.rename": true, "agent.view.set": true, "agent.view.clear": true,
	"integration.install": true, "integration.uninstall": true,
	"plugin.link": true, "plugin.list": true, "plugin.unlink": true, "plugin.enable": true, "plugin.disable": true,
	"plugin.action.list": true, "plugin.action.invoke": true, "plugin.log.list": true,
	"plugin.pane.open": true, "plugin.pane.focus": true, "plugin.pane.close": true,
}

// controlMethod is the method that serves name, nil for none.
func controlMethod(name string) method {
	for _, m := range []map[string]method{paneMethods, layoutMethods, agentMethods} {
		if f := m[name]; f != nil {
			return f
		}
	}
	switch name {
	case "events.subscribe":
		return (*Handler).eventsSubscribe
	case "events.wait":
		return (*Handler).eventsWait
	case "notification.show":
		return (*Handler).notificationShow
	}
	return nil
}

// Served says whether the socket serves a method (the reports, the reads and the control
// methods); NotServed whether it answers not_supported.
func Served(name string) bool {
	switch name {
	case "ping", "pane.report_agent", "pane.report_agent_session", "pane.release_agent", "pane.get", "pane.list", "agent.list", "agent.get":
		return true
	}
	return displayOnly[name] || controlMethod(name) != nil
}

func NotServed(name string) bool { return notServed[name] }

// protocolVersion is the herdr socket protocol whose request and answer shapes taw follows for
// the methods it serves.
const protocolVersion = 20

// Handle answers one request from peer.
func (h *Handler) Handle(ctx context.Context, peer Peer, req Request) (any, *Error) {
	switch req.Method {
	case "ping":
		return pong{Type: "pong", Version: "taw " + h.Version, Protocol: protocolVersion}, nil
	case "pane.report_agent", "pane.report_agent_session", "pane.release_agent":
		return h.report(ctx, peer, req)
	case "pane.get":
		return h.paneGet(ctx, peer, req)
	case "pane.list":
		panes, err := panestate.List(ctx, h.Tmux)
		if err != nil {
			return nil, tmuxError(err)
		}
		views := []paneInfo{}
		seen := map[string]bool{}
		for _, p := range panes {
			if !seen[p.ID] {
				seen[p.ID] = true
				views = append(views, newPaneInfo(p))
			}
		}
		return paneList{Type: "pane_list", Panes: views}, nil
	case "agent.list":
		panes, err := panestate.List(ctx, h.Tmux)
		if err != nil {
			return nil, tmuxError(err)
		}
		views := []agentInfo{}
		for _, p := range panestate.AgentPanes(panes) {
			views = append(views, newAgentInfo(p))
		}
		return agentList{Type: "agent_list", Agents: views}, nil
	case "agent.get":
		return h.agentGet(ctx, peer, req)
	}
	if displayOnly[req.Method] {
		return ok, nil
	}
	if m := controlMethod(req.Method); m != nil {
		return m(h, ctx, peer, req.Params)
	}
	if notServed[req.Method] {
		return nil, errorf(CodeNotSupported, "taw does not serve %s over its herdr socket: use taw's own commands (taw --help)", req.Method)
	}
	return nil, errorf(CodeInvalidRequest, "invalid request: unknown method %q", req.Method)
}

func (h *Handler) report(ctx context.Context, peer Peer, req Request) (any, *Error) {
	named, rep, e := DecodeReport(req.Method, req.Params)
	if e != nil {
		return nil, e
	}
	paneID, e := h.callerPane(ctx, peer)
	if e != nil {
		return nil, e
	}
	if strings.HasPrefix(named, "%") && named != integration.CallingPane && named != paneID {
		return nil, errorf(CodePaneMismatch, "pane %s is not the pane the reporting process runs in (%s): a report over the socket writes its own pane only; send %s", named, paneID, integration.CallingPane)
	}
	var written panestate.Pane
	out, err := panestate.ApplyReport(ctx, h.Tmux, h.LockDir, paneID, rep, h.NowMillis, panestate.Written(&written))
	if err != nil {
		return nil, tmuxError(err)
	}
	res := reportResult{Type: ok.Type}
	if out.InOrder && rep.Verb != report.ReleaseAgent && written.ID != "" {
		if kept, why := watch.ReportLasts(written, peer.PID); !kept {
			res.Kept, res.Reason = &kept, why
		}
	}
	return res, nil
}

func (h *Handler) paneGet(ctx context.Context, peer Peer, req Request) (any, *Error) {
	named, e := decodeTarget(req.Method, "pane_id", req.Params)
	if e != nil {
		return nil, e
	}
	id, e := h.namedOrCaller(ctx, peer, named)
	if e != nil {
		return nil, e
	}
	p, err := panestate.Read(ctx, h.Tmux, id)
	if err != nil {
		return nil, tmuxError(err)
	}
	return paneResult{Type: "pane_info", Pane: newPaneInfo(p)}, nil
}

func (h *Handler) agentGet(ctx context.Context, peer Peer, req Request) (any, *Error) {
	target, e := decodeTarget(req.Method, "target", req.Params)
	if e != nil {
		return nil, e
	}
	if !strings.HasPrefix(target, "%") && !isHerdrPaneID(target) {
		panes, err := panestate.List(ctx, h.Tmux)
		if err != nil {
			return nil, tmuxError(err)
		}
		matches := panestate.AgentsNamed(panestate.AgentPanes(panes), target)
		switch len(matches) {
		case 1:
			return agentResult{Type: "agent_info", Agent: newAgentInfo(matches[0])}, nil
		case 0:
			return nil, errorf(CodeAgentNotFound, "agent %s not found", target)
		default:
			return nil, errorf(CodeAgentAmbiguous, "%d panes run %s: name the pane instead", len(matches), target)
		}
	}
	id, e := h.namedOrCaller(ctx, peer, target)
	if e != nil {
		return nil, e
	}
	p, err := panestate.Read(ctx, h.Tmux, id)
	if err != nil {
		if te := tmuxError(err); te.Code != CodePaneNotFound {
			return nil, te
		}
		return nil, errorf(CodeAgentNotFound, "agent %s not found", target)
	}
	if p.Agent() == "" {
		return nil, errorf(CodeAgentNotFound, "pane %s runs no agent", p.ID)
	}
	return agentResult{Type: "agent_info", Agent: newAgentInfo(p)}, nil
}

// isHerdrPaneID says whether a target looks like one of herdr's pane ids (w1:p2) rather than an
// agent's name, which never holds a colon.
func isHerdrPaneID(s string) bool { return strings.Contains(s, ":") }

// namedOrCaller is the pane a read names: a tmux pane id as it is, the caller's pane for
// %calling or one of herdr's ids (which name the pane the client runs in).
func (h *Handler) namedOrCaller(ctx context.Context, peer Peer, named string) (string, *Error) {
	if strings.HasPrefix(named, "%") && named != integration.CallingPane {
		return named, nil
	}
	return h.callerPane(ctx, peer)
}

// callerPane is the pane the connecting process runs in: the terminal it (or the nearest parent
// that has one) holds, matched against every pane's terminal.
func (h *Handler) callerPane(ctx context.Context, peer Peer) (string, *Error) {
	tty, _, err := procinfo.TerminalOf(peer.PID)
	if err != nil {
		if errors.Is(err, procinfo.ErrNoAncestorTerminal) {
			return "", errorf(CodePaneNotFound, "the process that connected (pid %d) and its parents hold no terminal: report from inside a tmux pane", peer.PID)
		}
		return "", errorf(CodePaneNotFound, "the process that connected (pid %d) can no longer be read (%v): keep the connection open until the answer arrives", peer.PID, err)
	}
	if id, ok := h.ttys.lookup(tty); ok {
		return id, nil
	}
	out, err := h.Tmux.Output(ctx, tmux.ListAllPanes("#{pane_id} #{pane_pid} #{pane_tty}")...)
	if err != nil {
		return "", tmuxError(err)
	}
	if id, ok := h.ttys.refresh(out, tty); ok {
		return id, nil
	}
	return "", errorf(CodePaneNotFound, "the process that connected (pid %d) runs in no pane of this tmux server (a popup, another server or a terminal outside tmux): report from the agent's pane", peer.PID)
}

// ttyPanes remembers which pane each terminal belongs to, so that a report costs no tmux call
// to find its pane. An entry holds while the pane's first process still has that terminal:
// when tmux closes a pane it hangs its terminal up, which takes the terminal from that process,
// and a respawned pane has a new first process; either way the entry is read again.
type ttyPanes struct {
	mu    sync.Mutex
	panes map[uint64]ttyPane
}

type ttyPane struct {
	id  string
	pid int
}

func (t *ttyPanes) lookup(tty uint64) (string, bool) {
	t.mu.Lock()
	e, ok := t.panes[tty]
	t.mu.Unlock()
	if !ok {
		return "", false
	}
	if held, holder, err := procinfo.TerminalOf(e.pid); err == nil && holder == e.pid && held == tty {
		return e.id, true
	}
	t.mu.Lock()
	delete(t.panes, tty)
	t.mu.Unlock()
	return "", false
}

// refresh reads list-panes rows (pane id, pane pid, pane tty) into the map and returns the pane
// of tty.
func (t *ttyPanes) refresh(rows string, tty uint64) (string, bool) {
	panes := map[uint64]ttyPane{}
	for _, row := range strings.Split(rows, "\n") {
		f := strings.SplitN(row, " ", 3)
		if len(f) != 3 || f[2] == "" {
			continue
		}
		pid, err := strconv.Atoi(f[1])
		if err != nil {
			continue
		}
		var st syscall.Stat_t
		if syscall.Stat(f[2], &st) == nil {
			panes[uint64(st.Rdev)] = ttyPane{id: f[0], pid: pid}
		}
	}
	t.mu.Lock()
	t.panes = panes
	t.mu.Unlock()
	e, ok := panes[tty]
	return e.id, ok
}

// tmuxError turns a failed tmux call into an answer.
func tmuxError(err error) *Error {
	var te *tmux.Error
	if errors.As(err, &te) {
		switch te.Code {
		case tmux.CodePaneNotFound:
			return errorf(CodePaneNotFound, "%s", strings.TrimSpace(te.Stderr))
		case tmux.CodeServerNotRunning:
			return errorf(CodeServerNotRunning, "the tmux server is gone")
		}
	}
	if errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return errorf(CodeInternal, "tmux did not answer in time")
	}
	return errorf(CodeInternal, "%s", fmt.Sprint(err))
}
