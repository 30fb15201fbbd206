package daemon

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/taw-tmux/taw/helper/mux/tmuxhost"
	"github.com/taw-tmux/taw/helper/mux/wire"
	"github.com/taw-tmux/taw/helper/rawio"
)

// Timings of the protocol.
const (
	// AttachInterval is the least time between two Attach calls on one connection.
	AttachInterval = 500 * time.Millisecond
	// sweepInterval is how often pane exits are looked for.
	sweepInterval = 250 * time.Millisecond
	// quietBeforeExit lets the last output of a dead pane arrive before its PaneExited.
	quietBeforeExit = 100 * time.Millisecond
	// flushTimeout bounds how long a closing connection may take to drain its queue.
	flushTimeout = 5 * time.Second
	// shutdownTimeout bounds a whole shutdown: whatever tmux or the connections do, the daemon
	// is gone by then (the socket at once).
	shutdownTimeout = 1500 * time.Millisecond
)

// Config is what a daemon needs.
type Config struct {
	Host *tmuxhost.Host
	// Log receives one line per connection event; nil discards.
	Log io.Writer
	// WorkDir is where panes start when a Spawn names no cwd.
	WorkDir string
}

// Daemon serves Conmux v1 connections.
type Daemon struct {
	cfg Config

	running atomic.Bool
	done    chan struct{}
	stop    sync.Once
	lnMu    sync.Mutex
	ln      net.Listener

	panesMu sync.Mutex
	panes   map[string]*pane
	// attaching holds the panes an Attach is snapshotting right now (one at a time per pane).
	attaching map[string]bool

	connsMu sync.RWMutex
	conns   map[*conn]struct{} // connections past their handshake, which hear broadcasts
	open    map[*conn]struct{} // every connection accepted and not yet closed
	nextID  atomic.Uint64

	sweepMu sync.Mutex
	sweeps  atomic.Uint64 // sweeps done, so that a test can wait for the next one
}

// New builds a daemon over a started host.
func New(cfg Config) *Daemon {
	d := &Daemon{
		cfg: cfg, done: make(chan struct{}),
		panes: map[string]*pane{}, attaching: map[string]bool{}, conns: map[*conn]struct{}{}, open: map[*conn]struct{}{},
	}
	d.running.Store(true)
	return d
}

// Done is closed once the daemon has shut down.
func (d *Daemon) Done() <-chan struct{} { return d.done }

// Serve accepts connections until the daemon shuts down; it then returns nil.
func (d *Daemon) Serve(ln net.Listener) error {
	d.lnMu.Lock()
	d.ln = ln
	d.lnMu.Unlock()
	go d.sweepLoop()
	for {
		nc, err := ln.Accept()
		if err != nil {
			if !d.running.Load() {
				<-d.done
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return fmt.Errorf("accept: %w", err)
		}
		go d.serveConn(nc)
	}
}

// Shutdown ends the daemon as KillServer does: no new panes or connections (the socket goes at
// once), every pane's tree killed (without PaneExited), the tmux side torn down and every
// connection closed, all within shutdownTimeout whatever tmux and the peers do. Connections past
// their handshake may drain what is queued for them (a KillServer's reply) until then.
func (d *Daemon) Shutdown() {
	d.stop.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		d.running.Store(false)
		d.lnMu.Lock()
		if d.ln != nil {
			d.ln.Close()
		}
		d.lnMu.Unlock()
		d.panesMu.Lock()
		var hps []*tmuxhost.Pane
		for id, p := range d.panes {
			if hp := p.remove(); hp != nil {
				hps = append(hps, hp)
			}
			delete(d.panes, id)
		}
		d.panesMu.Unlock()
		d.connsMu.Lock()
		for c := range d.open {
			if c.greeted.Load() {
				c.q.close()
			} else {
				c.q.kill() // no handshake yet: nothing is owed to it
			}
		}
		d.connsMu.Unlock()
		hostDone := make(chan struct{})
		go func() { d.cfg.Host.Shutdown(ctx, hps); close(hostDone) }()
		select {
		case <-hostDone:
		case <-ctx.Done():
			d.cfg.Host.Abandon() // its tmux server, unanswering, must not outlive the daemon
		}
		d.connsMu.Lock()
		var draining []*conn
		for c := range d.open {
			if c.greeted.Load() {
				draining = append(draining, c)
			}
		}
		d.connsMu.Unlock()
		for _, c := range draining {
			select {
			case <-c.written:
			case <-ctx.Done():
			}
		}
		d.connsMu.Lock()
		for c := range d.open {
			c.q.kill()
		}
		d.connsMu.Unlock()
		close(d.done)
	})
}

func (d *Daemon) logf(format string, args ...any) {
	if d.cfg.Log != nil {
		fmt.Fprintf(d.cfg.Log, "%d %s\n", time.Now().UnixMilli(), fmt.Sprintf(format, args...))
	}
}

// conn is one client connection.
type conn struct {
	d  *Daemon
	id uint64
	nc net.Conn
	q  *outQueue

	subsMu sync.Mutex
	subs   map[string]bool

	lastAttach time.Time     // only the reader goroutine touches it
	greeted    atomic.Bool   // its handshake is done: a shutdown lets its queue drain
	written    chan struct{} // closed when its writer has written all it will
}

func (c *conn) subscribed(id string) bool {
	c.subsMu.Lock()
	defer c.subsMu.Unlock()
	return c.subs[id]
}

func (c *conn) subscribe(id string, on bool) {
	c.subsMu.Lock()
	defer c.subsMu.Unlock()
	if on {
		c.subs[id] = true
	} else {
		delete(c.subs, id)
	}
}

// Outcomes of a connection, for the log.
const (
	outcomeNoIdentity  = "RejectedNoIdentity"
	outcomeBadVersion  = "RejectedBadVersion"
	outcomeFirstFrame  = "RejectedBadFirstFrame"
	outcomeDirection   = "RejectedBadDirection"
	outcomeClosed      = "Closed"
	outcomeKillServer  = "KillServerRequested"
	outcomeIOError     = "IoError"
	outcomeBadFrame    = "IoError"
	reasonNormal       = "normal"
	reasonBackpressure = "backpressure"
)

func (d *Daemon) serveConn(nc net.Conn) {
	writerDone := make(chan struct{})
	c := &conn{d: d, id: d.nextID.Add(1), nc: nc, q: newOutQueue(nc), subs: map[string]bool{}, written: writerDone}
	d.connsMu.Lock()
	if !d.running.Load() {
		d.connsMu.Unlock()
		nc.Close()
		return
	}
	d.open[c] = struct{}{}
	d.connsMu.Unlock()
	defer func() {
		d.connsMu.Lock()
		delete(d.open, c)
		d.connsMu.Unlock()
	}()
	pid, err := peerPID(nc)
	if err != nil {
		d.logf("connect conn=%d pid=none", c.id)
		d.logf("disconnect conn=%d reason=%s outcome=%s (%v)", c.id, reasonNormal, outcomeNoIdentity, err)
		nc.Close()
		return
	}
	d.logf("connect conn=%d pid=%d image=%q", c.id, pid, exeOf(pid))
	go func() { c.q.run(); close(writerDone) }()
	outcome := c.readLoop()
	d.connsMu.Lock()
	delete(d.conns, c)
	d.connsMu.Unlock()
	reason := reasonNormal
	if c.q.wasCut() {
		reason = reasonBackpressure
	}
	c.q.close()
	if outcome == outcomeKillServer {
		// The shutdown starts now, not once the peer has read its reply.
		go d.Shutdown()
	}
	select {
	case <-writerDone:
	case <-time.After(flushTimeout):
		// A peer that reads nothing cannot hold the daemon (or its KillServer) up.
		c.q.kill()
		<-writerDone
	}
	d.logf("disconnect conn=%d reason=%s outcome=%s", c.id, reason, outcome)
}

// readLoop runs the handshake, then requests one at a time in order, each reply queued before
// the next request is read. Any bad frame ends the connection with no reply: no correlation id
// can be trusted from it.
func (c *conn) readLoop() string {
	r := wire.NewReader(bufio.NewReaderSize(rawio.ReaderOf(c.nc), 64*1024))
	if outcome := handshake(r); outcome != "" {
		return outcome
	}
	c.greeted.Store(true)
	c.send(&wire.HelloAck{ProtocolVersion: wire.ProtocolVersion, DaemonVersion: wire.DaemonVersion}, 256)
	// Only now may broadcasts reach the connection: nothing goes out before its HelloAck.
	if !c.d.register(c) {
		return outcomeClosed
	}
	for {
		if c.q.isDead() {
			return outcomeIOError
		}
		f, outcome := readFrame(r)
		if f == nil {
			return outcome
		}
		req, ok := f.(*wire.Request)
		if !ok {
			return outcomeDirection
		}
		reply := c.d.dispatch(c, req)
		c.send(reply, replyCost(reply))
		if _, kill := req.Op.(*wire.OpKillServer); kill {
			// Nothing after KillServer is read on this connection.
			return outcomeKillServer
		}
	}
}

// handshake reads the first frame, which must be a Hello of this protocol version; "" when it is.
func handshake(r *wire.Reader) string {
	f, outcome := readFrame(r)
	hello, ok := f.(*wire.Hello)
	switch {
	case f == nil:
		return outcome
	case !ok:
		return outcomeFirstFrame
	case hello.ProtocolVersion != wire.ProtocolVersion:
		return outcomeBadVersion
	}
	return ""
}

// readFrame reads the next frame, or says how the connection ends: closed between frames, or
// broken by a bad or cut-off frame.
func readFrame(r *wire.Reader) (wire.Frame, string) {
	f, err := r.Next()
	switch {
	case err == nil:
		return f, ""
	case errors.Is(err, io.EOF):
		return nil, outcomeClosed
	}
	return nil, outcomeBadFrame
}

// register adds a handshaken connection to the fan-out set, unless the daemon is shutting down.
func (d *Daemon) register(c *conn) bool {
	d.connsMu.Lock()
	defer d.connsMu.Unlock()
	if !d.running.Load() {
		return false
	}
	d.conns[c] = struct{}{}
	return true
}

// send queues a frame to this connection. A frame that cannot be written whole (over 4 MiB)
// stops the connection: sending part of it, or skipping it, would desynchronise or silently
// drop the stream.
func (c *conn) send(f wire.Frame, cost int) bool {
	buf := framePool.Get().(*[]byte)
	defer putFrameBuf(buf)
	framed, err := wire.AppendFramed((*buf)[:0], f)
	*buf = framed
	if err != nil {
		c.q.kill()
		return false
	}
	return c.q.push(framed, cost)
}

// framePool holds encoding buffers: queues copy only what a socket does not take at once, so
// a stream of output is encoded into the same few buffers, with no allocation per chunk.
var framePool = sync.Pool{New: func() any { b := make([]byte, 0, 16*1024); return &b }}

// putFrameBuf returns a buffer to the pool, unless a rare big frame grew it.
func putFrameBuf(b *[]byte) {
	if cap(*b) <= 256*1024 {
		framePool.Put(b)
	}
}

// fanout queues an event to every connection subscribed to the pane. Callers hold the pane's
// lock, so frames of one pane are queued in seq order and never after a snapshot that holds them.
func (d *Daemon) fanout(paneID string, ev wire.Event) {
	d.notify(ev, func(c *conn) bool { return c.subscribed(paneID) })
}

// broadcast queues an event to every connection, subscribed or not.
func (d *Daemon) broadcast(ev wire.Event) {
	d.notify(ev, func(*conn) bool { return true })
}

// notify encodes an event once and queues it to every connection to that wants it.
func (d *Daemon) notify(ev wire.Event, to func(*conn) bool) {
	buf := framePool.Get().(*[]byte)
	defer putFrameBuf(buf)
	framed, err := wire.AppendFramed((*buf)[:0], &wire.Notify{Event: ev})
	*buf = framed
	if err != nil {
		return // a PaneOutput chunk is at most 64 KiB, far below the frame limit
	}
	cost := eventCost(ev)
	d.connsMu.RLock()
	defer d.connsMu.RUnlock()
	for c := range d.conns {
		if to(c) {
			c.q.push(framed, cost)
		}
	}
}

func exeOf(pid int) string {
	p, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if err != nil {
		return ""
	}
	return p
}
