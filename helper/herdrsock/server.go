package herdrsock

import (
	"bufio"
	"bytes"
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"time"
)

// Limits of one connection, herdr's own: a request line of at most 1 MiB, read within 5 s.
const (
	maxLine      = 1 << 20
	readTimeout  = 5 * time.Second
	writeTimeout = 5 * time.Second
	callTimeout  = 5 * time.Second
	maxOpen      = 256 // requests handled at once; more wait for a turn (each is bounded)
	// maxWaiting is how many connections may wait for their request line at once. Past it the
	// one that has waited longest is closed, so idle connections (however many one user opens)
	// never keep a new one from being read.
	maxWaiting = 512
)

// Peer is the process that connected.
type Peer struct{ PID, UID int }

// Serve accepts connections until ctx ends, each served on its own: one request, one answer,
// then the connection closes, as herdr does. A handler that panics answers internal_error and
// the server goes on. When ctx ends, requests being served are finished (each is bounded) before
// Serve returns, so no report is cut off half-way.
func Serve(ctx context.Context, ln *Listener, h *Handler) error {
	go func() {
		<-ctx.Done()
		ln.UnixListener.Close()
	}()
	var wg sync.WaitGroup
	defer wg.Wait()
	slots := make(chan struct{}, maxOpen)
	waiting := &waitQueue{}
	for {
		conn, err := ln.AcceptUnix()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if errors.Is(err, net.ErrClosed) {
				return err
			}
			time.Sleep(20 * time.Millisecond) // out of descriptors, say: let some close
			continue
		}
		w := waiting.add(conn)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer waiting.remove(w)
			serveConn(context.WithoutCancel(ctx), conn, h, func() {
				waiting.remove(w)
				slots <- struct{}{}
			}, func() { <-slots })
		}()
	}
}

// waitQueue holds the connections waiting for their request line, oldest first.
type waitQueue struct {
	mu    sync.Mutex
	conns list.List
}

// add queues conn, closing the oldest waiting one when there are more than maxWaiting.
func (q *waitQueue) add(conn *net.UnixConn) *list.Element {
	q.mu.Lock()
	defer q.mu.Unlock()
	e := q.conns.PushBack(conn)
	if q.conns.Len() > maxWaiting {
		oldest := q.conns.Remove(q.conns.Front()).(*net.UnixConn)
		oldest.Close()
	}
	return e
}

// remove takes e off the queue; one closed for waiting too long is off it already.
func (q *waitQueue) remove(e *list.Element) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.conns.Remove(e)
}

// serveConn reads the request line, then takes a turn (take) to handle it and gives it back
// (give) when done.
func serveConn(ctx context.Context, conn *net.UnixConn, h *Handler, take, give func()) {
	defer conn.Close()
	took := false
	defer func() {
		if took {
			give()
		}
	}()
	id := ""
	defer func() {
		if r := recover(); r != nil {
			h.logf("request %q: internal error: %v", id, r)
			writeAnswer(conn, answer{ID: id, Error: errorf(CodeInternal, "internal error while serving the request")})
		}
	}()
	peer, err := peerOf(conn)
	if err != nil {
		writeAnswer(conn, answer{Error: errorf(CodeForbidden, "cannot tell which process connected: %v", err)})
		return
	}
	if peer.UID != os.Getuid() {
		writeAnswer(conn, answer{Error: errorf(CodeForbidden, "the socket serves its own user only (uid %d)", os.Getuid())})
		return
	}
	_ = conn.SetReadDeadline(time.Now().Add(readTimeout))
	line, err := readLine(conn)
	if errors.Is(err, errLineTooLong) {
		writeAnswer(conn, answer{Error: errorf(CodeInvalidRequest, "invalid request: the line is longer than 1 MiB")})
		return
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return // nothing asked (or nothing within the time): herdr closes without an answer too
	}
	take()
	took = true
	req, perr := ParseRequest(line)
	if perr != nil {
		writeAnswer(conn, answer{ID: req.ID, Error: perr})
		return
	}
	id = req.ID
	var cctx context.Context
	var cancel context.CancelFunc
	if IsWait(req.Method) {
		// A wait ends at its own timeout_ms, or when the client hangs up: a reader notices.
		cctx, cancel = context.WithCancel(ctx)
		go func() {
			defer cancel()
			_ = conn.SetReadDeadline(time.Time{})
			buf := make([]byte, 512)
			for {
				if _, err := conn.Read(buf); err != nil {
					return
				}
			}
		}()
	} else {
		cctx, cancel = context.WithTimeout(ctx, callTimeout)
	}
	defer cancel()
	result, herr := h.Handle(cctx, peer, req)
	if herr != nil {
		writeAnswer(conn, answer{ID: id, Error: herr})
		return
	}
	if s, isStream := result.(Stream); isStream {
		if !writeAnswer(conn, answer{ID: id, Result: s.Ack}) {
			return
		}
		err := s.Run(cctx, func(v any) error {
			b, err := json.Marshal(v)
			if err != nil {
				return err
			}
			_ = conn.SetWriteDeadline(time.Now().Add(writeTimeout))
			_, err = conn.Write(append(b, '\n'))
			return err
		})
		if err != nil && cctx.Err() == nil {
			h.logf("request %q: stream ended: %v", id, err)
		}
		return
	}
	writeAnswer(conn, answer{ID: id, Result: result})
}

var errLineTooLong = errors.New("line too long")

// readLine reads up to the first newline, or to the end when the client closes its side without
// one.
func readLine(conn *net.UnixConn) ([]byte, error) {
	r := bufio.NewReaderSize(io.LimitReader(conn, maxLine+1), 4096)
	line, err := r.ReadSlice('\n')
	var buf []byte
	for errors.Is(err, bufio.ErrBufferFull) {
		buf = append(buf, line...)
		line, err = r.ReadSlice('\n')
	}
	buf = append(buf, line...)
	if len(buf) > maxLine {
		return nil, errLineTooLong
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return buf, nil
}

func writeAnswer(conn *net.UnixConn, a answer) bool {
	b, err := json.Marshal(a)
	if err != nil {
		b = []byte(`{"id":"","error":{"code":"` + CodeInternal + `","message":"could not encode the answer"}}`)
	}
	_ = conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	_, err = conn.Write(append(b, '\n'))
	return err == nil
}
