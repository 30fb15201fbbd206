package tmuxhost

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/taw-tmux/taw/helper/mux/proctree"
	"github.com/taw-tmux/taw/helper/rawio"
	"github.com/taw-tmux/taw/helper/shellquote"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxfmt"
)

// Session is the tmux session that holds every pane.
const Session = "taw-mux"

// Config says which tmux server to use.
type Config struct {
	Tmux *tmux.Client
	// Own is true when the server is the daemon's alone: it is started here and killed on
	// Shutdown. Otherwise only the session is created and killed.
	Own bool
	// TmuxPath is the tmux binary the lifeline pane runs (see Start).
	TmuxPath string
	// RunDir is a private directory (0700) for the FIFOs and sockets.
	RunDir string
	// Relay is the command (an argument vector) that pipe-pane runs, with a socket and a token
	// after it, to hand the pane's output pipe over (see RelayFD). Required.
	Relay []string
}

// Host is one tmux session serving panes.
type Host struct {
	cfg      Config
	lifeline *os.File
	// ctl is the one control-mode client Sends and every other call after Start go through;
	// one that has ended (someone detached it) is replaced at the next call.
	ctlMu sync.Mutex
	ctl   *tmux.Control
	// features are the server's release's, read when the host starts.
	features tmux.Features
	starter  tmux.Client // the client that starts the control client
	relays   *relays     // nil without a Relay
	// serverPID is the own tmux server's process (0 when borrowed or unknown): a shutdown that
	// finds it not answering ends it by signal, so it never outlives the daemon.
	serverPID int

	mu    sync.Mutex
	next  int    // the next window index
	sends uint64 // numbers the paste buffers of large Sends
	// deadSince is when a pane was first seen dead with neither exit status nor signal yet.
	// tmux 3.3a marks a pane dead when its terminal closes, which can come before the process
	// is reaped and its status recorded. So such a pane is only taken as dead, its end
	// unknown, once it has stayed so for statusWait.
	deadSince map[string]time.Time
	killed    map[string]bool // panes taken as dead with no status: none will come
}

// statusWait is how long a dead pane may wait for its exit status before it counts as dead
// with its end unknown (Poll prods the server to reap in the meantime).
const statusWait = 2 * time.Second

// Pane is one generation of a pane: a tmux window with its first process.
type Pane struct {
	PaneID   string // %N
	WindowID string // @N
	PID      int
	fifo     *os.File
	fifoPath string
	done     chan struct{}
}

// Start creates the session. Its first window is a lifeline: it reads a FIFO that only this
// process holds open and watches this process's pid, and when this process dies, however and
// whenever it dies, the window kills the server (or, on a borrowed server, the session). So panes
// never outlive the daemon.
func Start(ctx context.Context, cfg Config) (*Host, error) {
	if err := os.MkdirAll(cfg.RunDir, 0o700); err != nil {
		return nil, fmt.Errorf("make run directory: %w", err)
	}
	life := filepath.Join(cfg.RunDir, "lifeline")
	_ = os.Remove(life)
	if err := syscall.Mkfifo(life, 0o600); err != nil {
		return nil, fmt.Errorf("make lifeline fifo: %w", err)
	}
	h := &Host{cfg: cfg, next: 1}
	ending := "kill-server"
	if !cfg.Own {
		ending = "kill-session -t '=" + Session + "'"
	}
	// The FIFO ends the wait at once when this process dies; the pid check covers a death before
	// this process opened its end, when the FIFO's reader would wait for a writer forever.
	// An own server whose socket file was removed cannot be reached by kill-server: the window's
	// parent is the server itself, so it ends it by signal then.
	fallback := ""
	if cfg.Own {
		fallback = " || kill $PPID"
	}
	watch := fmt.Sprintf("exec sh -c 'cat \"$0\" >/dev/null 2>&1 & while kill -0 \"$2\" 2>/dev/null && kill -0 $! 2>/dev/null; do sleep 1; done; \"$1\" %s 2>/dev/null%s' %s %s %d", ending, fallback, shellquote.Quoted(life), shellquote.Quoted(cfg.TmuxPath), os.Getpid())
	if cfg.Own {
		// A server left by a daemon that was killed before its lifeline fired.
		_, _ = cfg.Tmux.Run(ctx, tmux.Cmd{"kill-server"})
	}
	cmds := []tmux.Cmd{{"new-session", "-d", "-s", Session, "-n", "lifeline", "-x", "80", "-y", "24", watch}}
	if cfg.Own {
		cmds = append(cmds,
			tmux.Cmd{"set-option", "-g", "remain-on-exit", "on"},
			tmux.Cmd{"set-option", "-g", "history-limit", "0"},
			tmux.Cmd{"set-option", "-g", "status", "off"},
		)
	}
	// Starting a server takes the tmux binary; the calls after it may go over the socket.
	starter := *cfg.Tmux
	starter.Bin = cfg.TmuxPath
	if err := checkCmds(cmds); err != nil {
		return nil, fmt.Errorf("start tmux session %s: %w", Session, err)
	}
	out, err := starter.Run(ctx, append(cmds, tmux.Cmd{"display-message", "-p", tmux.VersionFormat})...)
	if err != nil {
		return nil, fmt.Errorf("start tmux session %s: %w", Session, err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	h.features = tmux.FeaturesOf(lines[len(lines)-1])
	f, err := holdLifeline(ctx, life)
	if err != nil {
		_, _ = starter.Run(ctx, tmux.Cmd{"kill-session", "-t", Session})
		return nil, err
	}
	h.lifeline = f
	// Output is read through pipe-pane, not %output: tmux 3.3a drops a control client's
	// pending %output of a pane whose process has just ended, and never-lost output is the
	// protocol's first rule. So the control client asks for none.
	h.starter = starter
	ctl, err := h.startControl(ctx)
	if err != nil {
		f.Close()
		_, _ = starter.Run(ctx, tmux.Cmd{"kill-session", "-t", Session})
		return nil, err
	}
	h.ctl = ctl
	if cfg.Own {
		if out, err := h.call(ctx, tmux.Cmd{"display-message", "-p", "#{pid}"}); err == nil {
			h.serverPID, _ = strconv.Atoi(strings.TrimSpace(out))
		}
	}
	if h.relays, err = listenRelays(filepath.Join(cfg.RunDir, "relay.sock")); err != nil {
		ctl.Close()
		f.Close()
		_, _ = starter.Run(ctx, tmux.Cmd{"kill-session", "-t", Session})
		return nil, err
	}
	return h, nil
}

// run is a call through a tmux client of its own, for what must run as one command list. Each
// argument is checked first: none reaches tmux split. The call waits as long as the request it
// serves may (its context's deadline), not the client's fixed patience: a burst of calls to a
// busy server each waits its turn.
func (h *Host) run(ctx context.Context, cmds ...tmux.Cmd) (string, error) {
	if err := checkCmds(cmds); err != nil {
		return "", err
	}
	c := h.cfg.Tmux
	if deadline, ok := ctx.Deadline(); ok {
		bounded := *c
		bounded.Timeout = max(time.Until(deadline), time.Millisecond)
		c = &bounded
	}
	return c.Run(ctx, cmds...)
}

// checkCmds refuses commands with an argument tmux would split.
func checkCmds(cmds []tmux.Cmd) error {
	for _, cmd := range cmds {
		for _, a := range cmd {
			if err := tmux.CheckArg(a); err != nil {
				return err
			}
		}
	}
	return nil
}

func (h *Host) startControl(ctx context.Context) (*tmux.Control, error) {
	return h.starter.StartControl(ctx, Session, "no-output,ignore-size", func(string, []byte) {})
}

// call runs commands on the control client, first replacing one that has ended. A call that was
// in flight when a client ended fails: tmux may or may not have run it.
func (h *Host) call(ctx context.Context, cmds ...tmux.Cmd) (string, error) {
	h.ctlMu.Lock()
	ctl := h.ctl
	if ctl.Ended() {
		next, err := h.startControl(ctx)
		if err != nil {
			h.ctlMu.Unlock()
			return "", err
		}
		ctl.Close()
		h.ctl, ctl = next, next
	}
	h.ctlMu.Unlock()
	return ctl.Run(ctx, cmds...)
}

// holdLifeline opens the lifeline's write end once its reader has opened the other end. The
// order matters: a reader that opened only after this process died would wait for a writer
// forever, and the server would outlive the daemon. A non-blocking open for writing fails with
// ENXIO until a reader is there.
func holdLifeline(ctx context.Context, path string) (*os.File, error) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err == nil {
			return os.NewFile(uintptr(fd), path), nil
		}
		if err != syscall.ENXIO {
			return nil, fmt.Errorf("open lifeline fifo: %w", err)
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("the tmux lifeline window did not start within 30s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// SpawnSpec is what a pane runs.
type SpawnSpec struct {
	Program    string
	Args       []string
	Dir        string
	Env        [][2]string
	Rows, Cols uint16
}

// CheckSpawn says why a spawn cannot be handed to tmux, or "" when it can: every string must
// reach tmux as itself, so none may hold a NUL (tmux would split it there into further
// arguments, or further commands), and an environment name must be a name (one with "=" would
// set another variable than the one asked for).
func CheckSpawn(spec SpawnSpec) string {
	if err := tmux.CheckArg(spec.Program); err != nil {
		return "program: " + err.Error()
	}
	for i, a := range spec.Args {
		if err := tmux.CheckArg(a); err != nil {
			return fmt.Sprintf("argument %d: %v", i+1, err)
		}
	}
	if err := tmux.CheckArg(spec.Dir); err != nil {
		return "working directory: " + err.Error()
	}
	for _, kv := range spec.Env {
		switch {
		case kv[0] == "":
			return "environment: a variable with an empty name: give every variable a name"
		case strings.ContainsRune(kv[0], '='):
			return fmt.Sprintf("environment: variable name %q holds \"=\": a name cannot", kv[0])
		}
		if err := tmux.CheckArg(kv[0]); err != nil {
			return "environment name: " + err.Error()
		}
		if err := tmux.CheckArg(kv[1]); err != nil {
			return fmt.Sprintf("environment value of %s: %v", kv[0], err)
		}
	}
	return ""
}

// Spawn starts a pane and feeds its raw output to out, from its first byte (out must not keep
// the slice past its return): the pipe is attached in the same tmux command list that creates
// the window, and tmux reads no pane output before the list has run.
func (h *Host) Spawn(ctx context.Context, spec SpawnSpec, out func([]byte)) (*Pane, error) {
	if msg := CheckSpawn(spec); msg != "" {
		return nil, fmt.Errorf("%s", msg)
	}
	h.mu.Lock()
	index := h.next
	h.next++
	h.mu.Unlock()
	pipe, err := h.outputPipe(index)
	if err != nil {
		return nil, err
	}
	target := fmt.Sprintf("%s:%d", Session, index)
	argv := append([]string{spec.Program}, spec.Args...)
	if len(spec.Args) == 0 {
		// tmux hands a lone argument to a shell; exec keeps the program's pid the pane's.
		argv = []string{"exec " + shellquote.Quoted(spec.Program)}
	}
	create := tmux.Cmd{"new-window", "-d", "-t", target, "-c", tmuxfmt.Value(spec.Dir), "-P", "-F", "#{pane_id} #{window_id} #{pane_pid}"}
	for _, kv := range spec.Env {
		create = append(create, "-e", kv[0]+"="+kv[1])
	}
	create = append(append(create, "--"), argv...)
	size := fmt.Sprintf("%dx%d", spec.Cols, spec.Rows)
	res, err := h.run(ctx,
		tmux.Cmd{"set-option", "-t", Session, "default-size", size},
		create,
		tmux.Cmd{"set-option", "-w", "-t", target, "remain-on-exit", "on"},
		tmux.Cmd{"resize-window", "-t", target, "-x", strconv.Itoa(int(spec.Cols)), "-y", strconv.Itoa(int(spec.Rows))},
		tmux.Cmd{"pipe-pane", "-O", "-t", target, tmuxfmt.Literal(pipe.command)},
	)
	if err == nil {
		err = pipe.wait(ctx)
	}
	if err != nil {
		pipe.abandon()
		if res != "" {
			// The window exists but a later command failed: do not leave it behind.
			_, _ = h.call(ctx, tmux.Cmd{"kill-window", "-t", target})
		}
		return nil, fmt.Errorf("create tmux window: %w", err)
	}
	fields := strings.Fields(strings.SplitN(res, "\n", 2)[0])
	if len(fields) != 3 {
		pipe.abandon()
		return nil, fmt.Errorf("create tmux window: unexpected answer %q", res)
	}
	pid, _ := strconv.Atoi(fields[2])
	p := &Pane{PaneID: fields[0], WindowID: fields[1], PID: pid, fifo: pipe.file, fifoPath: pipe.path, done: make(chan struct{})}
	go p.read(out)
	return p, nil
}

func (p *Pane) read(out func([]byte)) {
	defer close(p.done)
	r := rawio.ReaderOf(p.fifo) // one thread woken per chunk, not two (see rawio)
	buf := make([]byte, 64*1024)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			out(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// Unread is how many bytes of the pane's output wait in its pipe, not yet read (TIOCINQ is
// Linux's FIONREAD). tmux marks a pane dead only once it has written all the pane's output into
// the pipe, so a dead pane with nothing unread has had its last output read.
func (p *Pane) Unread() (int, error) {
	rc, err := p.fifo.SyscallConn()
	if err != nil {
		return 0, err
	}
	n := 0
	var ioErr error
	if err := rc.Control(func(fd uintptr) { n, ioErr = unix.IoctlGetInt(int(fd), unix.TIOCINQ) }); err != nil {
		return 0, err
	}
	return n, ioErr
}

func (p *Pane) close() {
	p.fifo.Close()
	if p.fifoPath != "" {
		os.Remove(p.fifoPath)
	}
}

// outputPipe is where a new pane's output will come from, and the pipe-pane command that
// sends it there.
type outputPipe struct {
	command string
	file    *os.File // the read end; for a relay, once it has come
	path    string   // the FIFO, removed with the pane; "" for a relay
	relays  *relays
	token   string
	ch      chan *os.File
}

func (h *Host) outputPipe(index int) (*outputPipe, error) {
	if h.relays != nil {
		token, ch, err := h.relays.expect()
		if err != nil {
			return nil, err
		}
		words := make([]string, 0, len(h.cfg.Relay)+2)
		for _, w := range append(append([]string{}, h.cfg.Relay...), h.relays.path, token) {
			words = append(words, shellquote.Quoted(w))
		}
		return &outputPipe{command: "exec " + strings.Join(words, " "), relays: h.relays, token: token, ch: ch}, nil
	}
	// Without a relay a FIFO fed by `cat` would lose the first output of a program that ends
	// before cat has started (seen on a loaded machine), so there is no such way.
	return nil, fmt.Errorf("no output relay: the host needs Config.Relay")
}

// wait waits for a relay to hand the pipe over; tmux holds the output until then.
func (o *outputPipe) wait(ctx context.Context) error {
	if o.file != nil {
		return nil
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
	}
	select {
	case o.file = <-o.ch:
		return nil
	case <-ctx.Done():
		return errNoRelay
	}
}

func (o *outputPipe) abandon() {
	if o.relays != nil {
		o.relays.forget(o.token, o.ch)
	}
	if o.file != nil {
		o.file.Close()
	}
	if o.path != "" {
		os.Remove(o.path)
	}
}

// pasteFrom is the size from which a Send goes through a paste buffer rather than send-keys:
// below it, one send-keys line is the shortest way; above it, tmux reads the bytes from a file in
// one go instead of parsing three bytes of command per byte sent.
const pasteFrom = 512

// Send writes raw bytes to the pane's terminal, all of them or (on an error) none: a short
// Send as send-keys -H, where each byte becomes exactly that byte (ESC, NUL and bytes over 0x7f
// included); a long one through a private file that tmux loads into a paste buffer of its own and
// pastes whole with -r (no newline translation) and without -p (no bracketed-paste wrapping).
// The paste only queues the bytes on the pane's terminal, so neither other panes nor other
// calls wait for the program to read them.
func (h *Host) Send(ctx context.Context, p *Pane, data []byte) error {
	if len(data) < pasteFrom {
		cmd := make(tmux.Cmd, 0, len(data)+4)
		cmd = append(cmd, "send-keys", "-H", "-t", p.PaneID)
		for _, b := range data {
			cmd = append(cmd, hexByte(b))
		}
		_, err := h.call(ctx, cmd)
		return err
	}
	h.mu.Lock()
	h.sends++
	n := h.sends
	h.mu.Unlock()
	path := filepath.Join(h.cfg.RunDir, fmt.Sprintf("send%d", n))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return fmt.Errorf("stage the bytes to send: %w", err)
	}
	defer os.Remove(path)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("stage the bytes to send: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("stage the bytes to send: %w", err)
	}
	buffer := fmt.Sprintf("taw-mux-send-%d", n)
	if _, err := h.call(ctx, tmux.Cmd{"load-buffer", "-b", buffer, path}); err != nil {
		return err
	}
	paste := tmux.Cmd{"paste-buffer", "-r", "-d", "-b", buffer, "-t", p.PaneID}
	if h.features.PasteEscapes {
		paste = append(paste, "-S") // the bytes as they are, not escaped (tmux 3.7)
	}
	if _, err := h.call(ctx, paste); err != nil {
		_, _ = h.call(ctx, tmux.Cmd{"delete-buffer", "-b", buffer})
		return err
	}
	return nil
}

// hexDigits holds the two hex digits of every byte in turn: send-keys -H takes its words from it
// with no formatting (a table built at start would cost every taw process).
const hexDigits = "" +
	"000102030405060708090a0b0c0d0e0f" +
	"101112131415161718191a1b1c1d1e1f" +
	"202122232425262728292a2b2c2d2e2f" +
	"303132333435363738393a3b3c3d3e3f" +
	"404142434445464748494a4b4c4d4e4f" +
	"505152535455565758595a5b5c5d5e5f" +
	"606162636465666768696a6b6c6d6e6f" +
	"707172737475767778797a7b7c7d7e7f" +
	"808182838485868788898a8b8c8d8e8f" +
	"909192939495969798999a9b9c9d9e9f" +
	"a0a1a2a3a4a5a6a7a8a9aaabacadaeaf" +
	"b0b1b2b3b4b5b6b7b8b9babbbcbdbebf" +
	"c0c1c2c3c4c5c6c7c8c9cacbcccdcecf" +
	"d0d1d2d3d4d5d6d7d8d9dadbdcdddedf" +
	"e0e1e2e3e4e5e6e7e8e9eaebecedeeef" +
	"f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"

// hexByte is the two hex digits of b.
func hexByte(b byte) string { return hexDigits[2*int(b) : 2*int(b)+2] }

// Resize sets the pane's size; one pane per window, so the window's size is the pane's.
// resize-window also makes the window's size manual, so it holds with no client attached.
// (Setting window-size manual globally instead makes tmux 3.3a crash on the next new-window.)
func (h *Host) Resize(ctx context.Context, p *Pane, rows, cols uint16) error {
	_, err := h.call(ctx, tmux.Cmd{"resize-window", "-t", p.WindowID, "-x", strconv.Itoa(int(cols)), "-y", strconv.Itoa(int(rows))})
	return err
}

// Kill ends the pane's whole process tree (its session and every descendant), then closes its
// window. Closing the window alone only hangs up the terminal, which children that left its
// process group survive.
func (h *Host) Kill(ctx context.Context, p *Pane) error {
	if p.PID > 1 {
		proctree.KillTree(p.PID)
	}
	_, err := h.call(ctx, tmux.Cmd{"kill-window", "-t", p.WindowID})
	p.close()
	if tmux.IsPaneNotFound(err) {
		return nil
	}
	return err
}

// Features are what the server's release can do: on one without DeadSignal (3.2a), a pane
// killed by a signal has no exit code (Status.ExitCode stays nil).
func (h *Host) Features() tmux.Features { return h.features }

// Status is what tmux knows of a pane's process.
type Status struct {
	Dead bool
	// ExitCode is how the process ended: its exit status, or for a death by signal N the
	// number a POSIX shell reports for it, 128+N (tmux gives the signal). Nil when tmux knows
	// neither.
	ExitCode *int32
	// Signal is the signal that ended the process, 0 when it exited or is running.
	Signal int
}

// Poll reads every pane's status, keyed by %N.
func (h *Host) Poll(ctx context.Context) (map[string]Status, error) {
	list := tmux.Cmd{"list-panes", "-s", "-t", Session, "-F", "#{pane_id}:#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}"}
	out, err := h.call(ctx, list)
	if err != nil {
		return nil, err
	}
	if h.deadWithoutStatus(out) {
		// tmux 3.3a can miss the SIGCHLD of a pane's process and leave it a zombie with no
		// status until some other child of the server ends. A run-shell is such a child: the
		// server reaps every zombie when it ends, and the status is there to read.
		if again, err := h.call(ctx, tmux.Cmd{"run-shell", "true"}, list); err == nil {
			out = again
		}
	}
	st := map[string]Status{}
	now := time.Now()
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		id, s, ok := parseStatus(line)
		if !ok {
			continue
		}
		if s.Dead && s.ExitCode == nil && !h.killedLongEnough(id, now) {
			s.Dead = false
		}
		st[id] = s
	}
	return st, nil
}

// parseStatus reads one "%N:dead:status:signal" line.
func parseStatus(line string) (string, Status, bool) {
	f := strings.Split(line, ":")
	if len(f) != 4 || f[0] == "" {
		return "", Status{}, false
	}
	s := Status{Dead: f[1] == "1"}
	if !s.Dead {
		return f[0], s, true
	}
	if n, err := strconv.ParseInt(f[2], 10, 32); err == nil && f[2] != "" {
		c := int32(n)
		s.ExitCode = &c
	} else if sig, err := strconv.Atoi(f[3]); err == nil && sig > 0 && sig < 128 {
		c := int32(128 + sig)
		s.ExitCode, s.Signal = &c, sig
	}
	return f[0], s, true
}

// killedLongEnough says whether a dead pane without an exit status has waited long enough for one.
func (h *Host) killedLongEnough(paneID string, now time.Time) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.deadSince == nil {
		h.deadSince = map[string]time.Time{}
	}
	first, ok := h.deadSince[paneID]
	if !ok {
		h.deadSince[paneID] = now
		return false
	}
	if now.Sub(first) < statusWait {
		return false
	}
	delete(h.deadSince, paneID)
	if h.killed == nil {
		h.killed = map[string]bool{}
	}
	h.killed[paneID] = true
	return true
}

// Shutdown kills every given pane's tree, then the server (or the borrowed server's session),
// and removes the run directory.
func (h *Host) Shutdown(ctx context.Context, panes []*Pane) {
	for _, p := range panes {
		if p.PID > 1 {
			proctree.KillTree(p.PID)
		}
		p.close()
	}
	if h.cfg.Own {
		if _, err := h.run(ctx, tmux.Cmd{"kill-server"}); err != nil && !tmux.IsServerGone(err) {
			h.Abandon()
		}
	} else {
		_, _ = h.run(ctx, tmux.Cmd{"kill-session", "-t", Session})
	}
	h.ctlMu.Lock()
	h.ctl.Close()
	h.ctlMu.Unlock()
	if h.relays != nil {
		h.relays.close()
	}
	h.lifeline.Close()
	os.RemoveAll(h.cfg.RunDir)
}

// Abandon ends the own tmux server by signal, for a shutdown that could not end it in time: a
// server that does not answer (stopped, or wedged) would otherwise outlive the daemon. A borrowed
// server is never touched.
func (h *Host) Abandon() {
	if h.cfg.Own && h.serverPID > 1 {
		_ = syscall.Kill(h.serverPID, syscall.SIGKILL)
	}
}

// deadWithoutStatus says whether a list of "%N dead status" lines holds a dead pane with no exit
// status yet that is still waiting for one (not yet taken as killed by a signal).
func (h *Host) deadWithoutStatus(out string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if id, s, ok := parseStatus(line); ok && s.Dead && s.ExitCode == nil && !h.killed[id] {
			return true
		}
	}
	return false
}
