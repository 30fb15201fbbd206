package daemon

import (
	"net"
	"sync"
	"syscall"

	"github.com/taw-tmux/taw/helper/mux/wire"
	"github.com/taw-tmux/taw/helper/rawio"
)

// MaxQueueBytes caps what one connection may have waiting to be written. A connection that falls
// further behind is cut, never fed a stream with holes: its client reconnects and attaches again.
const MaxQueueBytes = 8 * 1024 * 1024

// outQueue is a connection's outbound FIFO, drained by one writer goroutine so that frames leave
// in exactly the order they were queued, and so that queueing never blocks a pane's reader.
type outQueue struct {
	nc      net.Conn // closed as soon as the queue dies, so a writer stuck on a full socket returns
	mu      sync.Mutex
	frames  [][]byte
	costs   []int
	bytes   int
	dead    bool // over the cap, or a write failed: nothing more is queued or written
	cut     bool // dead because it went over the cap
	closing bool // write what is queued, then close
	writing bool // the writer goroutine is writing a batch it took
	wake    chan struct{}
	// raw writes a frame at once, without the writer goroutine, when nothing is queued before
	// it and the socket takes it without waiting: one hand-over less on the way to the client.
	raw syscall.RawConn
}

func newOutQueue(nc net.Conn) *outQueue {
	q := &outQueue{nc: nc, wake: make(chan struct{}, 1)}
	if sc, ok := nc.(syscall.Conn); ok {
		if raw, err := sc.SyscallConn(); err == nil {
			q.raw = raw
		}
	}
	return q
}

// push queues one framed frame (length prefix and body, as EncodeFramed makes it) with its
// accounted cost. It returns false when the connection is dead or is now cut for going over the
// cap. The caller may reuse framed once push returns: what the socket does not take at once is
// copied, so one encoding goes to many connections and most frames are never copied at all.
func (q *outQueue) push(framed []byte, cost int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.dead || q.closing {
		return false
	}
	if q.bytes+cost > MaxQueueBytes {
		q.dead, q.cut = true, true
		q.frames, q.costs = nil, nil
		q.signal()
		q.nc.Close()
		return false
	}
	if len(q.frames) == 0 && !q.writing && q.raw != nil {
		n := rawio.TryWrite(q.raw, framed)
		if n == len(framed) {
			return true
		}
		framed = framed[n:]
	}
	q.frames = append(q.frames, append([]byte(nil), framed...))
	q.costs = append(q.costs, cost)
	q.bytes += cost
	q.signal()
	return true
}

func (q *outQueue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// kill stops the queue at once; close stops it after what is queued has been written.
func (q *outQueue) kill() {
	q.mu.Lock()
	q.dead = true
	q.signal()
	q.mu.Unlock()
	q.nc.Close()
}

func (q *outQueue) close() {
	q.mu.Lock()
	q.closing = true
	q.signal()
	q.mu.Unlock()
}

func (q *outQueue) wasCut() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.cut
}

func (q *outQueue) isDead() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.dead
}

// run writes queued frames until the queue dies or is closed and drained, then closes the socket.
func (q *outQueue) run() {
	nc := q.nc
	defer nc.Close()
	for {
		q.mu.Lock()
		for len(q.frames) == 0 && !q.dead && !q.closing {
			q.mu.Unlock()
			<-q.wake
			q.mu.Lock()
		}
		if q.dead || (q.closing && len(q.frames) == 0) {
			q.mu.Unlock()
			return
		}
		frames, costs := q.frames, q.costs
		q.frames, q.costs = nil, nil
		q.writing = true
		q.mu.Unlock()
		bufs := net.Buffers(frames)
		_, err := bufs.WriteTo(nc)
		q.mu.Lock()
		q.writing = false
		for _, c := range costs {
			q.bytes -= c
		}
		if err != nil {
			q.dead = true
		}
		q.mu.Unlock()
	}
}

// Rough per-frame costs, so that the cap means the same as on any Conmux v1 daemon.
func eventCost(ev wire.Event) int {
	if o, ok := ev.(*wire.PaneOutput); ok {
		return len(o.Data) + 64
	}
	return 128
}

func replyCost(r *wire.Reply) int {
	switch p := r.Payload.(type) {
	case *wire.Captured:
		return b64Len(len(p.Result.Data)) + 128
	case *wire.AttachSnapshot:
		return b64Len(len(p.ModePreamble)) + b64Len(len(p.History)) + 192
	case *wire.Panes:
		return 256*len(p.Panes) + 64
	case *wire.Themes:
		return 1024*len(p.Themes) + 64
	}
	return 256
}

func b64Len(n int) int { return (n + 2) / 3 * 4 }
