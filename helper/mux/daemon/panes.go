package daemon

import (
	"context"
	"sync"
	"time"

	"github.com/taw-tmux/taw/helper/mux/scrollback"
	"github.com/taw-tmux/taw/helper/mux/tmuxhost"
	"github.com/taw-tmux/taw/helper/mux/wire"
	"github.com/taw-tmux/taw/helper/tmux"
)

// pane is one generation of a protocol pane: its tmux side and the raw-stream state the protocol
// describes (tmux's rendered grid cannot supply it).
type pane struct {
	d   *Daemon
	req wire.SpawnRequest
	dir string // the working directory shown: the spawn cwd, or "" when none was given

	mu         sync.Mutex // guards everything below; output, snapshots and fan-out take it
	hp         *tmuxhost.Pane
	removed    bool
	ring       *scrollback.Ring
	modes      scrollback.Modes
	seq        uint64
	size       wire.PaneSize
	exited     bool
	exitCode   *int32
	announced  bool
	lastOutput time.Time
	deadSeen   time.Time // when a sweep first saw the pane dead
}

// outputDone says whether a dead pane's last output has been read and sent on: nothing waits in
// its pipe, and neither its last output nor its death is newer than quietBeforeExit (the reader
// may hold a chunk it has read but not yet handed over). p.mu is held.
func (p *pane) outputDone() bool {
	if time.Since(p.lastOutput) < quietBeforeExit || time.Since(p.deadSeen) < quietBeforeExit {
		return false
	}
	n, err := p.hp.Unread()
	return err != nil || n == 0
}

func newPane(d *Daemon, req wire.SpawnRequest, dir string) *pane {
	return &pane{d: d, req: req, dir: dir, ring: scrollback.NewRing(0), size: req.Size}
}

// onOutput records one chunk: ring, seq and modes move together, and the chunk is queued to
// subscribers under the same lock, so an Attach snapshot and the live stream never overlap or
// leave a gap.
func (p *pane) onOutput(data []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.removed {
		return
	}
	p.ring.Write(data)
	p.seq++
	p.modes.Feed(data)
	p.lastOutput = time.Now()
	p.d.fanout(p.req.PaneID, &wire.PaneOutput{PaneID: p.req.PaneID, Seq: p.seq, Data: data})
}

// ready says tmux has answered the Spawn and the pane was not removed since.
func (p *pane) ready() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hp != nil
}

// remove marks the generation gone (its late output and exit are silent) and returns its tmux
// side for killing.
func (p *pane) remove() *tmuxhost.Pane {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.removed = true
	hp := p.hp
	p.hp = nil
	return hp
}

// stateLocked describes the pane; p.mu is held.
func (p *pane) stateLocked() wire.PaneState {
	s := wire.PaneState{
		PaneID: p.req.PaneID, AdapterID: p.req.AdapterID, DisplayName: p.req.DisplayName,
		Lifecycle: wire.Lifecycle{Phase: wire.PhaseRunning}, WorkingDir: p.dir, Size: p.size,
		Scrollback: wire.ScrollbackInfo{TotalBytes: uint64(p.ring.Len()), FirstAbsLine: p.ring.FirstLine(), LastAbsLine: p.ring.LastLine()},
		CreatedAt:  p.req.CreatedAt,
	}
	if p.hp != nil && p.hp.PID > 0 {
		pid := uint32(p.hp.PID)
		s.PID = &pid
	}
	if p.exited {
		// The lifecycle and exit_code say the same thing: the exit status, or 128+N for a death
		// by signal N as a shell reports it. A pane whose end tmux never learnt is a zombie: it
		// is gone, and no number is made up for it.
		s.ExitCode = p.exitCode
		if p.exitCode != nil {
			s.Lifecycle = wire.Lifecycle{Phase: wire.PhaseExited, ExitCode: *p.exitCode}
		} else {
			s.Lifecycle = wire.Lifecycle{Phase: wire.PhaseZombie}
		}
	}
	return s
}

func (d *Daemon) livePanes() []*pane {
	d.panesMu.Lock()
	defer d.panesMu.Unlock()
	out := make([]*pane, 0, len(d.panes))
	for _, p := range d.panes {
		if p.ready() {
			out = append(out, p)
		}
	}
	return out
}

func (d *Daemon) sweepLoop() {
	t := time.NewTicker(sweepInterval)
	defer t.Stop()
	for {
		select {
		case <-d.done:
			return
		case <-t.C:
			d.sweep()
		}
	}
}

// sweep reads every pane's status from tmux. A pane seen dead is marked exited at once, and its
// PaneExited goes to subscribers once per generation, after its output has gone quiet.
func (d *Daemon) sweep() {
	d.sweepMu.Lock()
	defer d.sweepMu.Unlock()
	defer d.sweeps.Add(1)
	panes := d.livePanes()
	if len(panes) == 0 || !d.running.Load() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	status, err := d.cfg.Host.Poll(ctx)
	if err != nil {
		d.logf("sweep: %v", err)
		if tmux.IsServerGone(err) {
			// Someone ended the tmux server: every pane is gone, and so is the point of serving.
			go d.Shutdown()
		}
		return
	}
	for _, p := range panes {
		p.mu.Lock()
		if p.removed || p.hp == nil {
			p.mu.Unlock()
			continue
		}
		st, known := status[p.hp.PaneID]
		if !p.exited && (!known || st.Dead) {
			p.exited = true
			p.exitCode = st.ExitCode
			p.deadSeen = time.Now()
		}
		if p.exited && !p.announced && p.outputDone() {
			p.announced = true
			d.fanout(p.req.PaneID, &wire.PaneExited{PaneID: p.req.PaneID, ExitCode: p.exitCode})
		}
		p.mu.Unlock()
	}
}
