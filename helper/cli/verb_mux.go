package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/mux/client"
	"github.com/taw-tmux/taw/helper/mux/daemon"
	"github.com/taw-tmux/taw/helper/mux/tmuxhost"
	"github.com/taw-tmux/taw/helper/mux/wire"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/urfave/cli/v2"
)

// taw mux: serve the Conmux v1 protocol over tmux panes, and talk to such a daemon.
const (
	flagMuxSocket  = "socket"
	flagMuxLog     = "log"
	flagMuxNoInput = "no-input"
)

// detachKey is Ctrl+], which ends taw mux attach on a terminal and leaves the pane running.
const detachKey = 0x1d

func newMuxCommand(f *Factory) *cli.Command {
	return group("mux", "serve the Conmux v1 wire protocol over tmux panes, and talk to it",
		verb("serve", "[--socket <path>] [--log <path>]", "run the daemon in the foreground until KillServer, SIGTERM or SIGINT",
			noArgs(f.muxServe), socketFlag(), &cli.StringFlag{Name: flagMuxLog, Usage: "append connection events to `<path>` (rolled to path.1 past 1 MiB)"}),
		verb("call", "[--socket <path>] [--timeout <seconds>] <op-json>", "send one operation (a MuxOp in JSON) and print the reply as one JSON line",
			oneArgOnly(`mux call takes one operation as JSON: taw mux call '"ListPanes"' or taw mux call '{"KillTree":{"pane_id":"p1"}}'`, f.muxCall),
			socketFlag(), &cli.Float64Flag{Name: flagTimeout, Value: 30, Usage: "give up after `<seconds>` without a reply"}),
		verb("attach", "[--socket <path>] [--no-input] <pane-id>", "print a pane's screen so far, then its live output, and send it what you type (Ctrl+] detaches)",
			oneArgOnly("mux attach takes one Conmux pane id: taw mux attach [--socket <path>] <pane-id>", f.muxAttach),
			socketFlag(), &cli.BoolFlag{Name: flagMuxNoInput, Usage: "only watch: send nothing to the pane"}),
		hidden(verb("pipe-relay", "<socket> <token>", "", muxPipeRelay)),
	)
}

func muxPipeRelay(c *cli.Context) error {
	if c.NArg() != 2 {
		return UsageErrorf("mux pipe-relay takes a socket and a token")
	}
	if err := tmuxhost.RelayFD(c.Args().Get(0), c.Args().Get(1)); err != nil {
		return Errorf(coded.MuxSocket, "%v", err)
	}
	return nil
}

func socketFlag() cli.Flag {
	return &cli.StringFlag{Name: flagMuxSocket, Usage: "the daemon's socket `<path>` (default $XDG_RUNTIME_DIR/taw/mux.sock)"}
}

type muxServeOptions struct {
	Socket  string
	Private bool // the default socket: its directory is made 0700
	Log     string
}

func (f *Factory) muxServe(c *cli.Context) error {
	opts := &muxServeOptions{Socket: c.String(flagMuxSocket), Log: c.String(flagMuxLog)}
	if opts.Socket == "" {
		opts.Socket, opts.Private = daemon.DefaultSocket(f.Getenv), true
	}
	return f.runOr(opts, func() error { return muxServeRun(c.Context, f, opts) })
}

// MuxTmuxName is the -L name of the tmux server a daemon on this socket owns.
func MuxTmuxName(socket string) string {
	abs, err := filepath.Abs(socket)
	if err != nil {
		abs = socket
	}
	sum := sha256.Sum256([]byte(abs))
	return "taw-mux-" + hex.EncodeToString(sum[:6])
}

func muxServeRun(ctx context.Context, f *Factory, opts *muxServeOptions) error {
	if f.Getenv("GOMAXPROCS") == "" {
		// The daemon hands bytes from tmux to sockets, a few goroutines each waking for a chunk:
		// with one processor a goroutine made ready runs on the thread that readied it, instead
		// of waking a second thread for it, which costs an echo's latency and tmux's CPU.
		runtime.GOMAXPROCS(1)
	}
	ln, err := daemon.Listen(opts.Socket, opts.Private)
	if err != nil {
		if errors.Is(err, daemon.ErrAlreadyRunning) {
			return Errorf(coded.MuxAlreadyRunning, "a taw mux daemon already listens on %s: stop it with KillServer (taw mux call --socket %s '\"KillServer\"') or pick another --socket", opts.Socket, opts.Socket)
		}
		return Errorf(coded.MuxSocket, "%v", err)
	}
	defer ln.Close()
	bin := f.Getenv("TAW_TMUX")
	if bin == "" {
		bin = "tmux"
	}
	tmuxPath, err := f.LookPath(bin)
	if err != nil {
		return Errorf(tmux.CodeTmuxError, "cannot find tmux (%v): install tmux or put it on PATH", err)
	}
	own := len(f.TmuxGlobal) == 0
	global := f.TmuxGlobal
	if own {
		global = []string{"-L", MuxTmuxName(opts.Socket), "-f", "/dev/null"}
	}
	var env []string
	for _, kv := range f.Environ() {
		if !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") {
			env = append(env, kv)
		}
	}
	runBase := f.Getenv("XDG_RUNTIME_DIR")
	if runBase == "" {
		runBase = os.TempDir()
	}
	runDir, err := os.MkdirTemp(runBase, "taw-mux-")
	if err != nil {
		return Errorf(coded.MuxSocket, "make a private run directory: %v", err)
	}
	defer os.RemoveAll(runDir)
	tc := &tmux.Client{Global: global, Env: env}
	exe, err := os.Executable()
	if err != nil {
		return Errorf(tmux.CodeTmuxError, "find taw's own binary, which relays each pane's output: %v", err)
	}
	relay := []string{exe, "mux", "pipe-relay"}
	host, err := tmuxhost.Start(ctx, tmuxhost.Config{Tmux: tc, Own: own, TmuxPath: tmuxPath, RunDir: runDir, Relay: relay})
	if err != nil {
		return Errorf(tmux.CodeTmuxError, "%v", err)
	}
	wd, _ := os.Getwd()
	cfg := daemon.Config{Host: host, WorkDir: wd}
	if opts.Log != "" {
		cfg.Log = &daemon.RollingLog{Path: opts.Log}
	}
	d := daemon.New(cfg)
	sigs, stop := signal.NotifyContext(ctx, syscall.SIGTERM, os.Interrupt)
	defer stop()
	go func() {
		select {
		case <-sigs.Done():
			d.Shutdown()
		case <-d.Done():
		}
	}()
	served := make(chan error, 1)
	go func() { served <- d.Serve(ln) }()
	if err := writeJSONLine(f.IO.Out, map[string]any{"ok": true, "socket": opts.Socket, "tmux": global[:2], "own_tmux_server": own}); err != nil {
		d.Shutdown()
	}
	err = <-served
	d.Shutdown()
	if err != nil {
		return Errorf(coded.MuxSocket, "%v", err)
	}
	return nil
}

type muxCallOptions struct {
	Socket  string
	Op      wire.Op
	Timeout time.Duration
}

func (f *Factory) muxCall(c *cli.Context, opJSON string) error {
	op, err := wire.DecodeOp([]byte(opJSON))
	if err != nil {
		return Errorf(coded.MuxBadOp, "the operation is not a Conmux v1 MuxOp (%s): write it as the JSON of one op, such as '\"ListPanes\"' or '{\"Send\":{\"pane_id\":\"p1\",\"data\":\"<base64>\"}}'", strings.TrimPrefix(err.Error(), "bad frame: "))
	}
	if c.Float64(flagTimeout) <= 0 {
		return Errorf(coded.InvalidArgument, "invalid --timeout %v: give a number of seconds above 0", c.Float64(flagTimeout))
	}
	opts := &muxCallOptions{Socket: muxSocket(f, c), Op: op, Timeout: time.Duration(c.Float64(flagTimeout) * float64(time.Second))}
	return f.runOr(opts, func() error { return muxCallRun(f, opts) })
}

func muxSocket(f *Factory, c *cli.Context) string {
	if s := c.String(flagMuxSocket); s != "" {
		return s
	}
	return daemon.DefaultSocket(f.Getenv)
}

func muxDial(socket string, timeout time.Duration) (*client.Conn, error) {
	conn, err := client.Dial(socket, "taw", timeout)
	if errors.Is(err, client.ErrNoDaemon) {
		return nil, Errorf(coded.MuxNoDaemon, "no taw mux daemon listens on %s: start one with taw mux serve, or name its socket with --socket", socket)
	}
	if err != nil {
		return nil, Errorf(coded.MuxProtocol, "%v", err)
	}
	return conn, nil
}

func muxCallRun(f *Factory, opts *muxCallOptions) error {
	conn, err := muxDial(opts.Socket, opts.Timeout)
	if err != nil {
		return err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(opts.Timeout))
	reply, err := conn.Call(opts.Op)
	if err != nil {
		return Errorf(coded.MuxProtocol, "%s on %s: %v (a daemon drops a connection it cannot decode, without replying)", wire.OpName(opts.Op), opts.Socket, err)
	}
	line, err := wire.EncodeReply(reply)
	if err != nil {
		return Errorf(coded.Internal, "encode the reply: %v", err)
	}
	if _, err := fmt.Fprintf(f.IO.Out, "%s\n", line); err != nil {
		return err
	}
	if reply.Error != nil {
		return Errorf(coded.MuxRefused, "the daemon refused %s: %s", wire.OpName(opts.Op), reply.Error)
	}
	return nil
}

type muxAttachOptions struct {
	Socket  string
	Pane    string
	NoInput bool
}

func (f *Factory) muxAttach(c *cli.Context, pane string) error {
	opts := &muxAttachOptions{Socket: muxSocket(f, c), Pane: pane, NoInput: c.Bool(flagMuxNoInput)}
	return f.runOr(opts, func() error { return muxAttachRun(f, opts) })
}

func muxAttachRun(f *Factory, opts *muxAttachOptions) error {
	conn, err := muxDial(opts.Socket, 10*time.Second)
	if err != nil {
		return err
	}
	defer conn.Close()
	var att *client.Attached
	for try := 0; ; try++ {
		a, werr, err := conn.Attach(opts.Pane)
		if err != nil {
			return Errorf(coded.MuxProtocol, "attach %s: %v", opts.Pane, err)
		}
		if werr == nil {
			att = a
			break
		}
		// Another client is snapshotting the pane: wait out the protocol's interval and retry.
		if werr.Kind != wire.ErrBusy || try >= 10 {
			if werr.Kind == wire.ErrPaneNotFound {
				return Errorf(tmux.CodePaneNotFound, "no pane %q on the daemon at %s: list them with taw mux call '\"ListPanes\"'", opts.Pane, opts.Socket)
			}
			return Errorf(coded.MuxRefused, "the daemon refused Attach: %s", werr)
		}
		time.Sleep(daemon.AttachInterval + 50*time.Millisecond)
	}
	out := f.IO.Out
	if _, err := out.Write(append(append([]byte(nil), att.Snapshot.ModePreamble...), att.Snapshot.History...)); err != nil {
		return err
	}
	last := att.Snapshot.LastSeq
	for _, o := range att.Backlog {
		if _, err := out.Write(o.Data); err != nil {
			return err
		}
		last = o.Seq
	}
	detached := make(chan struct{})
	if !opts.NoInput {
		file, isFile := f.IO.In.(*os.File)
		tty := isFile && isatty.IsTerminal(file.Fd())
		if tty {
			fd := int(file.Fd())
			if rows, cols, err := client.TerminalSize(fd); err == nil && rows > 0 && cols > 0 {
				_, _ = conn.Send(&wire.OpResize{PaneID: opts.Pane, Size: wire.PaneSize{Rows: rows, Cols: cols}})
			}
			// Restored here, on every way out, not in the input goroutine that may still be
			// blocked reading when the pane exits.
			if restore, err := client.RawTerminal(fd); err == nil {
				defer restore()
			}
		}
		go muxForwardInput(f, conn, opts.Pane, tty, detached)
	}
	for {
		ev, _, err := conn.Next()
		if err != nil {
			select {
			case <-detached:
				return nil
			default:
			}
			return Errorf(coded.MuxProtocol, "the connection to %s ended: %v (run attach again to resume)", opts.Socket, err)
		}
		switch ev := ev.(type) {
		case *wire.PaneOutput:
			// Anything at or below the high-water mark is already on screen.
			if ev.PaneID != opts.Pane || ev.Seq <= last {
				continue
			}
			last = ev.Seq
			if _, err := out.Write(ev.Data); err != nil {
				return err
			}
		case *wire.PaneExited:
			if ev.PaneID == opts.Pane {
				return nil
			}
		}
	}
}

// muxForwardInput sends what is typed to the pane: from a raw terminal, where Ctrl+] detaches,
// or from a pipe, until end of input.
func muxForwardInput(f *Factory, conn *client.Conn, pane string, tty bool, detached chan struct{}) {
	in := f.IO.In
	buf := make([]byte, 4096)
	for {
		n, err := in.Read(buf)
		data := buf[:n]
		if tty {
			if i := bytes.IndexByte(data, detachKey); i >= 0 {
				if i > 0 {
					_, _ = conn.Send(&wire.OpSend{PaneID: pane, Data: append([]byte(nil), data[:i]...)})
				}
				close(detached)
				conn.Close()
				return
			}
		}
		if n > 0 {
			if _, err := conn.Send(&wire.OpSend{PaneID: pane, Data: append([]byte(nil), data...)}); err != nil {
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				fmt.Fprintf(f.IO.ErrOut, "taw mux attach: read input: %v\n", err)
			}
			return
		}
	}
}
