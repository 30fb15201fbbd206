package client

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"sort"
	"sync"
	"time"

	"github.com/taw-tmux/taw/helper/mux/wire"
	"github.com/taw-tmux/taw/helper/rawio"
)

// Conn is one handshaken connection.
type Conn struct {
	nc  net.Conn
	r   *wire.Reader
	wmu sync.Mutex
	cid uint64
	// Pending holds notifications that arrived while waiting for a reply, oldest first.
	Pending []wire.Event
	// Daemon is the version the daemon reported.
	Daemon string
}

// ErrNoDaemon means nothing listens on the socket.
var ErrNoDaemon = errors.New("no daemon is listening")

// Dial connects and runs the handshake.
func Dial(path, kind string, timeout time.Duration) (*Conn, error) {
	nc, err := net.DialTimeout("unix", path, timeout)
	if err != nil {
		return nil, fmt.Errorf("%w on %s (%v)", ErrNoDaemon, path, err)
	}
	c := &Conn{nc: nc, r: wire.NewReader(bufio.NewReaderSize(rawio.ReaderOf(nc), 64*1024))}
	if err := c.write(&wire.Hello{ProtocolVersion: wire.ProtocolVersion, ClientKind: kind}); err != nil {
		nc.Close()
		return nil, err
	}
	if timeout > 0 {
		nc.SetReadDeadline(time.Now().Add(timeout))
	}
	f, err := c.read()
	nc.SetReadDeadline(time.Time{})
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("handshake: %w", err)
	}
	ack, ok := f.(*wire.HelloAck)
	if !ok {
		nc.Close()
		return nil, fmt.Errorf("handshake: the daemon answered %s instead of HelloAck", wire.FrameKind(f))
	}
	if ack.ProtocolVersion != wire.ProtocolVersion {
		nc.Close()
		return nil, fmt.Errorf("handshake: the daemon speaks protocol %d, this client %d", ack.ProtocolVersion, wire.ProtocolVersion)
	}
	c.Daemon = ack.DaemonVersion
	return c, nil
}

// Close closes the connection.
func (c *Conn) Close() error { return c.nc.Close() }

func (c *Conn) write(f wire.Frame) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return wire.WriteFrame(c.nc, f)
}

// read reads one frame and checks its direction: a client accepts only HelloAck, Reply and Notify.
func (c *Conn) read() (wire.Frame, error) {
	f, err := c.r.Next()
	if err != nil {
		return nil, err
	}
	switch f.(type) {
	case *wire.HelloAck, *wire.Reply, *wire.Notify:
		return f, nil
	}
	return nil, fmt.Errorf("the daemon sent a %s frame, which only clients send", wire.FrameKind(f))
}

// Send sends a request without waiting for its reply and returns its correlation id.
func (c *Conn) Send(op wire.Op) (uint64, error) {
	c.wmu.Lock()
	c.cid++
	id := c.cid
	c.wmu.Unlock()
	return id, c.write(&wire.Request{CorrelationID: id, Op: op})
}

// Call sends one request and waits for its reply; notifications that come first go to Pending.
func (c *Conn) Call(op wire.Op) (*wire.Reply, error) {
	id, err := c.Send(op)
	if err != nil {
		return nil, err
	}
	for {
		f, err := c.read()
		if err != nil {
			return nil, fmt.Errorf("wait for the reply: %w", err)
		}
		switch f := f.(type) {
		case *wire.Notify:
			c.Pending = append(c.Pending, f.Event)
		case *wire.Reply:
			if f.CorrelationID == id {
				return f, nil
			}
		default:
			return nil, fmt.Errorf("the daemon sent %s in the middle of a connection", wire.FrameKind(f))
		}
	}
}

// Next returns the next notification, pending ones first; a reply that arrives meanwhile (to a
// request sent with Send) is returned as well, with a nil event.
func (c *Conn) Next() (wire.Event, *wire.Reply, error) {
	if len(c.Pending) > 0 {
		ev := c.Pending[0]
		c.Pending = c.Pending[1:]
		return ev, nil, nil
	}
	f, err := c.read()
	if err != nil {
		return nil, nil, err
	}
	switch f := f.(type) {
	case *wire.Notify:
		return f.Event, nil, nil
	case *wire.Reply:
		return nil, f, nil
	}
	return nil, nil, fmt.Errorf("the daemon sent %s in the middle of a connection", wire.FrameKind(f))
}

// SetDeadline bounds the next reads.
func (c *Conn) SetDeadline(t time.Time) { c.nc.SetReadDeadline(t) }

// Attached is a pane's stitched stream.
type Attached struct {
	Snapshot *wire.AttachSnapshot
	// Backlog is the pane's output that arrived before the snapshot reply and is newer than it,
	// in seq order.
	Backlog []*wire.PaneOutput
}

// Attach subscribes and snapshots a pane. Output of that pane that comes before the reply is
// kept back, sorted and filtered to seq > last_seq; other notifications stay in Pending.
func (c *Conn) Attach(paneID string) (*Attached, *wire.Error, error) {
	before := len(c.Pending)
	reply, err := c.Call(&wire.OpAttach{PaneID: paneID})
	if err != nil {
		return nil, nil, err
	}
	if reply.Error != nil {
		return nil, reply.Error, nil
	}
	snap, ok := reply.Payload.(*wire.AttachSnapshot)
	if !ok {
		return nil, nil, fmt.Errorf("the daemon answered Attach with %s", wire.PayloadName(reply.Payload))
	}
	a := &Attached{Snapshot: snap}
	keep := c.Pending[:before:before]
	for _, ev := range c.Pending[before:] {
		if o, ok := ev.(*wire.PaneOutput); ok && o.PaneID == paneID {
			if o.Seq > snap.LastSeq {
				a.Backlog = append(a.Backlog, o)
			}
			continue
		}
		keep = append(keep, ev)
	}
	c.Pending = keep
	sort.Slice(a.Backlog, func(i, j int) bool { return a.Backlog[i].Seq < a.Backlog[j].Seq })
	return a, nil, nil
}
