package daemon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/taw-tmux/taw/helper/mux/tmuxhost"
	"github.com/taw-tmux/taw/helper/mux/wire"
)

// opTimeout bounds the tmux work of one request: each of its tmux calls waits its turn until
// then, so a burst of requests to a busy tmux server is served rather than failed.
const opTimeout = 30 * time.Second

func (d *Daemon) dispatch(c *conn, req *wire.Request) *wire.Reply {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	payload, err := d.run(ctx, c, req.Op)
	if err != nil {
		return &wire.Reply{CorrelationID: req.CorrelationID, Error: err}
	}
	return &wire.Reply{CorrelationID: req.CorrelationID, Payload: payload}
}

func (d *Daemon) run(ctx context.Context, c *conn, op wire.Op) (wire.Payload, *wire.Error) {
	switch op := op.(type) {
	case *wire.OpSpawn:
		return d.spawn(ctx, op.Request, false)
	case *wire.OpRespawn:
		return d.spawn(ctx, op.Request, true)
	case *wire.OpSend:
		return d.send(ctx, op)
	case *wire.OpCapture:
		p := d.lookup(op.Request.PaneID)
		if p == nil {
			return nil, paneNotFound(op.Request.PaneID)
		}
		p.mu.Lock()
		res := p.ring.Capture(op.Request.Range, op.Request.Ansi)
		p.mu.Unlock()
		return &wire.Captured{Result: res}, nil
	case *wire.OpResize:
		return d.resize(ctx, op)
	case *wire.OpKillTree:
		return d.killTree(ctx, op.PaneID)
	case *wire.OpListPanes:
		d.sweep()
		states := []wire.PaneState{}
		for _, p := range d.livePanes() {
			p.mu.Lock()
			states = append(states, p.stateLocked())
			p.mu.Unlock()
		}
		return &wire.Panes{Panes: states}, nil
	case *wire.OpSubscribe:
		c.subscribe(op.PaneID, true)
		return wire.AckSubscribed, nil
	case *wire.OpUnsubscribe:
		c.subscribe(op.PaneID, false)
		return wire.AckUnsubscribed, nil
	case *wire.OpAttach:
		return d.attach(c, op.PaneID)
	case *wire.OpListThemes:
		return &wire.Themes{Themes: wire.BuiltinThemes()}, nil
	case *wire.OpSetTheme:
		if _, ok := wire.ThemeByID(op.ID); !ok {
			return nil, &wire.Error{Kind: wire.ErrUnsupported, Message: fmt.Sprintf("unknown theme id %q: ListThemes lists the built-in ones", op.ID)}
		}
		// Everyone hears of it, the caller included and before its reply; nothing is stored.
		d.broadcast(&wire.ThemeChanged{ID: op.ID})
		return wire.AckThemeSet, nil
	case *wire.OpKillServer:
		return wire.AckServerKillScheduled, nil
	case *wire.OpPinExecutable, *wire.OpUnpinExecutable:
		return nil, &wire.Error{Kind: wire.ErrUnsupported, Message: "no trust store in this server: pin and unpin are not supported, and spawns are not gated by one"}
	}
	return nil, &wire.Error{Kind: wire.ErrUnsupported, Message: fmt.Sprintf("operation %s is not served", wire.OpName(op))}
}

func paneNotFound(id string) *wire.Error { return &wire.Error{Kind: wire.ErrPaneNotFound, PaneID: id} }

func (d *Daemon) lookup(id string) *pane {
	d.panesMu.Lock()
	defer d.panesMu.Unlock()
	p := d.panes[id]
	if p == nil || !p.ready() {
		return nil
	}
	return p
}

// spawn starts a pane; as Respawn it first removes and kills any pane of that id, then runs the
// same path, so the new generation starts with fresh output, modes and seq from 1, while
// subscriptions (kept by id) carry over.
func (d *Daemon) spawn(ctx context.Context, req wire.SpawnRequest, respawn bool) (wire.Payload, *wire.Error) {
	if !d.running.Load() {
		return nil, &wire.Error{Kind: wire.ErrSupervisorError, Message: "the daemon is shutting down: it starts and restarts no more panes"}
	}
	dir, shown := d.cfg.WorkDir, ""
	if req.Command.Cwd != nil {
		dir, shown = *req.Command.Cwd, *req.Command.Cwd
	}
	spec := tmuxhost.SpawnSpec{
		Program: req.Command.Program, Args: req.Command.Args, Dir: dir, Env: req.Command.Env, Rows: req.Size.Rows, Cols: req.Size.Cols,
	}
	// Every string goes to tmux whole or not at all: one that tmux would split is refused before
	// anything is touched, so a Respawn keeps the pane it would have replaced.
	if msg := tmuxhost.CheckSpawn(spec); msg != "" {
		return nil, &wire.Error{Kind: wire.ErrSpawnFailed, Message: msg}
	}
	if respawn {
		d.panesMu.Lock()
		old := d.panes[req.PaneID]
		if old != nil && old.ready() {
			delete(d.panes, req.PaneID)
		} else {
			old = nil
		}
		d.panesMu.Unlock()
		if old != nil {
			if hp := old.remove(); hp != nil {
				_ = d.cfg.Host.Kill(ctx, hp)
			}
		}
	}
	prog := req.Command.Program
	if !filepath.IsAbs(prog) {
		return nil, &wire.Error{Kind: wire.ErrNonAbsoluteProgram, Program: prog}
	}
	if msg := checkProgram(prog); msg != "" {
		return nil, &wire.Error{Kind: wire.ErrSpawnFailed, Message: msg}
	}
	if req.Command.Cwd != nil {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, &wire.Error{Kind: wire.ErrSpawnFailed, Message: fmt.Sprintf("working directory %q is not a directory this server can enter", dir)}
		}
	}
	if req.Size.Rows == 0 || req.Size.Cols == 0 {
		return nil, &wire.Error{Kind: wire.ErrSpawnFailed, Message: fmt.Sprintf("size %dx%d has a zero side: give at least 1 row and 1 column", req.Size.Rows, req.Size.Cols)}
	}
	p := newPane(d, req, shown)
	d.panesMu.Lock()
	if _, taken := d.panes[req.PaneID]; taken {
		d.panesMu.Unlock()
		return nil, &wire.Error{Kind: wire.ErrSpawnFailed, Message: fmt.Sprintf("a pane with id %q already exists: pick another id, or Respawn it", req.PaneID)}
	}
	d.panes[req.PaneID] = p // reserved: hp is nil until tmux answers, so it is not listed yet
	d.panesMu.Unlock()
	hp, err := d.cfg.Host.Spawn(ctx, spec, p.onOutput)
	if err == nil && !d.running.Load() {
		_ = d.cfg.Host.Kill(ctx, hp)
		err = fmt.Errorf("daemon is shutting down")
	}
	if err != nil {
		d.panesMu.Lock()
		if d.panes[req.PaneID] == p {
			delete(d.panes, req.PaneID)
		}
		d.panesMu.Unlock()
		return nil, &wire.Error{Kind: wire.ErrSpawnFailed, Message: err.Error()}
	}
	p.mu.Lock()
	p.hp = hp
	p.mu.Unlock()
	return &wire.Spawned{PaneID: req.PaneID}, nil
}

// checkProgram says why a program cannot be started, or "" when it can.
func checkProgram(prog string) string {
	st, err := os.Stat(prog)
	switch {
	case err != nil:
		return fmt.Sprintf("program %s cannot be found: %v", prog, err)
	case st.IsDir():
		return fmt.Sprintf("program %s is a directory", prog)
	case st.Mode().Perm()&0o111 == 0:
		return fmt.Sprintf("program %s is not executable", prog)
	}
	return ""
}

func (d *Daemon) send(ctx context.Context, op *wire.OpSend) (wire.Payload, *wire.Error) {
	p := d.lookup(op.PaneID)
	if p == nil {
		return nil, paneNotFound(op.PaneID)
	}
	p.mu.Lock()
	hp, exited := p.hp, p.exited
	p.mu.Unlock()
	if exited || hp == nil {
		return nil, &wire.Error{Kind: wire.ErrPtyError, Message: fmt.Sprintf("pane %s has exited: its terminal takes no input (Respawn it first)", op.PaneID)}
	}
	if len(op.Data) == 0 {
		return wire.AckSent, nil
	}
	if err := d.cfg.Host.Send(ctx, hp, op.Data); err != nil {
		return nil, &wire.Error{Kind: wire.ErrPtyError, Message: "write to the pane: " + err.Error()}
	}
	return wire.AckSent, nil
}

func (d *Daemon) resize(ctx context.Context, op *wire.OpResize) (wire.Payload, *wire.Error) {
	p := d.lookup(op.PaneID)
	if p == nil {
		return nil, paneNotFound(op.PaneID)
	}
	if op.Size.Rows == 0 || op.Size.Cols == 0 {
		return nil, &wire.Error{Kind: wire.ErrPtyError, Message: fmt.Sprintf("size %dx%d has a zero side: give at least 1 row and 1 column", op.Size.Rows, op.Size.Cols)}
	}
	p.mu.Lock()
	hp := p.hp
	p.mu.Unlock()
	if err := d.cfg.Host.Resize(ctx, hp, op.Size.Rows, op.Size.Cols); err != nil {
		return nil, &wire.Error{Kind: wire.ErrPtyError, Message: "resize the pane: " + err.Error()}
	}
	p.mu.Lock()
	p.size = op.Size
	p.mu.Unlock()
	return wire.AckResized, nil
}

// killTree removes the pane first, always, so that neither late output nor an exit is reported
// for it, then ends its process tree and its window.
func (d *Daemon) killTree(ctx context.Context, id string) (wire.Payload, *wire.Error) {
	d.panesMu.Lock()
	p := d.panes[id]
	if p == nil || !p.ready() {
		d.panesMu.Unlock()
		return nil, paneNotFound(id)
	}
	delete(d.panes, id)
	d.panesMu.Unlock()
	hp := p.remove()
	if hp == nil {
		return wire.AckKilled, nil
	}
	if err := d.cfg.Host.Kill(ctx, hp); err != nil {
		return nil, &wire.Error{Kind: wire.ErrSupervisorError, Message: "kill the pane's process tree: " + err.Error()}
	}
	return wire.AckKilled, nil
}

// attach is subscribe plus an atomic snapshot: rate limit per connection, one snapshot per pane at
// a time, subscription first, then history and last_seq read under the pane's lock.
func (d *Daemon) attach(c *conn, id string) (wire.Payload, *wire.Error) {
	now := time.Now()
	if !c.lastAttach.IsZero() && now.Sub(c.lastAttach) < AttachInterval {
		return nil, &wire.Error{Kind: wire.ErrBusy, Message: fmt.Sprintf("attach too frequent (less than %s since the last one on this connection): retry later", AttachInterval)}
	}
	c.lastAttach = now
	d.panesMu.Lock()
	if d.attaching[id] {
		d.panesMu.Unlock()
		return nil, &wire.Error{Kind: wire.ErrBusy, Message: "another attach is taking a snapshot of this pane: retry later"}
	}
	d.attaching[id] = true
	p := d.panes[id]
	d.panesMu.Unlock()
	defer func() {
		d.panesMu.Lock()
		delete(d.attaching, id)
		d.panesMu.Unlock()
	}()
	wasSubscribed := c.subscribed(id)
	c.subscribe(id, true)
	if p == nil {
		if !wasSubscribed {
			c.subscribe(id, false)
		}
		return nil, paneNotFound(id)
	}
	p.mu.Lock()
	if p.removed || p.hp == nil {
		p.mu.Unlock()
		if !wasSubscribed {
			c.subscribe(id, false)
		}
		return nil, paneNotFound(id)
	}
	snap := &wire.AttachSnapshot{History: p.ring.Bytes(), LastSeq: p.seq, ModePreamble: p.modes.Preamble(), PaneState: p.stateLocked()}
	p.mu.Unlock()
	return snap, nil
}
