package tmuxhost

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"syscall"
	"time"
)

// A pane's output reaches the daemon straight from tmux: pipe-pane starts a relay whose only
// work is to hand its standard input (tmux's end of the pipe) to the daemon over a private
// socket and exit. Then no process copies the bytes in between, as `cat > fifo` would: one
// wake-up less for each chunk, and no copy.

// RelayFD is the relay's side: it sends its standard input, with token, to the daemon's socket.
func RelayFD(socket, token string) error {
	c, err := net.DialTimeout("unix", socket, 10*time.Second)
	if err != nil {
		return fmt.Errorf("reach the taw mux daemon: %w", err)
	}
	defer c.Close()
	uc := c.(*net.UnixConn)
	_ = uc.SetDeadline(time.Now().Add(10 * time.Second))
	if _, _, err := uc.WriteMsgUnix([]byte(token), syscall.UnixRights(0), nil); err != nil {
		return fmt.Errorf("hand the pane's output to the daemon: %w", err)
	}
	// Wait for the daemon's word that it holds the pipe, so that nothing is lost if it is slow.
	var ack [1]byte
	_, err = uc.Read(ack[:])
	return err
}

// relays receives the pipes relays hand over, each to the Spawn waiting for its token.
type relays struct {
	ln      *net.UnixListener
	path    string
	mu      sync.Mutex
	waiting map[string]chan *os.File
}

func listenRelays(path string) (*relays, error) {
	_ = os.Remove(path)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listen for output pipes: %w", err)
	}
	r := &relays{ln: ln, path: path, waiting: map[string]chan *os.File{}}
	go r.accept()
	return r, nil
}

func (r *relays) accept() {
	for {
		c, err := r.ln.AcceptUnix()
		if err != nil {
			return
		}
		go r.take(c)
	}
}

func (r *relays) take(c *net.UnixConn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	buf := make([]byte, 64)
	oob := make([]byte, syscall.CmsgSpace(4))
	n, oobn, _, _, err := c.ReadMsgUnix(buf, oob)
	if err != nil {
		return
	}
	fd := -1
	if msgs, err := syscall.ParseSocketControlMessage(oob[:oobn]); err == nil {
		for _, m := range msgs {
			if fds, err := syscall.ParseUnixRights(&m); err == nil {
				for _, f := range fds {
					if fd < 0 {
						fd = f
					} else {
						syscall.Close(f)
					}
				}
			}
		}
	}
	if fd < 0 {
		return
	}
	r.mu.Lock()
	ch := r.waiting[string(buf[:n])]
	delete(r.waiting, string(buf[:n]))
	r.mu.Unlock()
	if ch == nil {
		syscall.Close(fd) // no Spawn asked for it
		return
	}
	// Non-blocking, so that the runtime polls it and a Close ends a read in progress.
	_ = syscall.SetNonblock(fd, true)
	syscall.CloseOnExec(fd)
	ch <- os.NewFile(uintptr(fd), "pane-output")
	_, _ = c.Write([]byte{1})
}

// expect registers a new token and returns it with the channel its pipe will come on.
func (r *relays) expect() (string, chan *os.File, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", nil, err
	}
	token := hex.EncodeToString(b[:])
	ch := make(chan *os.File, 1)
	r.mu.Lock()
	r.waiting[token] = ch
	r.mu.Unlock()
	return token, ch, nil
}

// forget drops a token whose Spawn gave up, closing a pipe that came too late.
func (r *relays) forget(token string, ch chan *os.File) {
	r.mu.Lock()
	delete(r.waiting, token)
	r.mu.Unlock()
	select {
	case f := <-ch:
		f.Close()
	default:
	}
}

func (r *relays) close() {
	r.ln.Close()
	os.Remove(r.path)
}

var errNoRelay = errors.New("the output relay did not hand over the pane's pipe")
