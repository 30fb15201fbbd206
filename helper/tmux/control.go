package tmux

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/taw-tmux/taw/helper/rawio"
)

// Control is one long-lived control-mode client (tmux -C attach-session): commands go in as
// lines of tmux's command language and are answered in order in %begin/%end blocks, and the
// output of every pane of the attached session arrives as %output lines, byte for byte. One
// connection serves every call, so no call pays for a new client.
type Control struct {
	proc  *exec.Cmd
	in    io.WriteCloser
	write io.Writer // in, written with raw system calls

	wmu sync.Mutex // held while writing lines and queueing their calls, so both keep one order

	mu    sync.Mutex
	calls []*controlCall // lines written and not yet answered, oldest first
	err   error          // set once the client has ended; every later call fails with it

	server  *Client // the server the client is of, asked why it ended when it did not say
	output  func(paneID string, data []byte)
	pending map[string][]byte // output read and not yet handed on, per pane (reader goroutine only)
	order   []string          // panes with pending output, first seen first
	done    chan struct{}
}

type controlCall struct {
	then func(out string, err error)
	res  chan controlResult
}

type controlResult struct {
	out string
	err error
}

// StartControl attaches a control-mode client to session. output receives each pane's output in
// order (several %output lines of one pane may come joined as one call); it runs on the client's
// reader goroutine, must not block, and must not keep data after it returns.
// flags are attach-session's client flags ("no-output,ignore-size"), "" for none.
func (c *Client) StartControl(ctx context.Context, session, flags string, output func(paneID string, data []byte)) (*Control, error) {
	if err := CheckArg(session); err != nil {
		return nil, err
	}
	args := append(append([]string{}, c.Global...), "-C", "attach-session", "-t", "="+session)
	if flags != "" {
		args = append(args, "-f", flags)
	}
	proc := exec.Command(c.bin(), args...)
	if c.Env != nil {
		proc.Env = c.Env
	}
	in, err := proc.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := proc.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	proc.Stderr = &stderr
	if err := proc.Start(); err != nil {
		return nil, &Error{Code: CodeTmuxError, Stderr: fmt.Sprintf("cannot run tmux (%v): install tmux or put it on PATH", err)}
	}
	// Raw reads and writes: on the echo path a plain one wakes a second runtime thread (see rawio).
	ctl := &Control{server: c, proc: proc, in: in, write: rawio.WriterOf(in), output: output, pending: map[string][]byte{}, done: make(chan struct{})}
	go ctl.read(rawio.ReaderOf(out), &stderr)
	// The first block answers the attach itself; a call that round-trips proves the client is in.
	if _, err := ctl.Run(ctx, Cmd{"display-message", "-p", "ok"}); err != nil {
		ctl.Close()
		return nil, fmt.Errorf("attach a control client to session %s: %w", session, err)
	}
	return ctl, nil
}

// Done is closed when the client has ended.
func (ctl *Control) Done() <-chan struct{} { return ctl.done }

// Ended says whether the client has ended or is ending: every call from now on fails.
func (ctl *Control) Ended() bool {
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	return ctl.err != nil
}

// Close detaches the client and waits for it to end.
func (ctl *Control) Close() {
	ctl.wmu.Lock()
	ctl.in.Close()
	ctl.wmu.Unlock()
	<-ctl.done
}

// Run sends each command as its own line, so each gets exactly one answer, and waits for all of
// them. Every command runs, even after one fails; the first failure is returned with the
// output of all.
func (ctl *Control) Run(ctx context.Context, cmds ...Cmd) (string, error) {
	calls := make([]*controlCall, len(cmds))
	for i := range cmds {
		calls[i] = &controlCall{res: make(chan controlResult, 1)}
	}
	if err := ctl.send(cmds, calls); err != nil {
		return "", err
	}
	var out strings.Builder
	var first error
	for _, call := range calls {
		select {
		case r := <-call.res:
			out.WriteString(r.out)
			if r.err != nil && first == nil {
				first = r.err
			}
		case <-ctx.Done():
			return out.String(), &Error{Code: CodeTmuxError, Stderr: "tmux did not answer in time: " + ctx.Err().Error()}
		}
	}
	return out.String(), first
}

// RunThen is Run for one command whose answer is handed to then on the reader goroutine before
// any later line of the client is read: what then sets up (a handler for a new pane's output) is
// in place before that output can arrive.
func (ctl *Control) RunThen(ctx context.Context, cmd Cmd, then func(out string, err error)) (string, error) {
	call := &controlCall{then: then, res: make(chan controlResult, 1)}
	if err := ctl.send([]Cmd{cmd}, []*controlCall{call}); err != nil {
		return "", err
	}
	select {
	case r := <-call.res:
		return r.out, r.err
	case <-ctx.Done():
		return "", &Error{Code: CodeTmuxError, Stderr: "tmux did not answer in time: " + ctx.Err().Error()}
	}
}

func (ctl *Control) send(cmds []Cmd, calls []*controlCall) error {
	var line []byte
	for _, cmd := range cmds {
		b, err := ControlLine(cmd)
		if err != nil {
			return err
		}
		line = append(line, b...)
	}
	ctl.wmu.Lock()
	defer ctl.wmu.Unlock()
	ctl.mu.Lock()
	if ctl.err != nil {
		err := ctl.err
		ctl.mu.Unlock()
		return err
	}
	ctl.calls = append(ctl.calls, calls...)
	ctl.mu.Unlock()
	if _, err := ctl.write.Write(line); err != nil {
		// The reader fails the queued calls when the client ends; these are among them.
		end := &Error{Code: CodeTmuxError, Stderr: "the tmux control client has ended: " + err.Error()}
		ctl.mu.Lock()
		if ctl.err == nil {
			ctl.err = end
		}
		ctl.mu.Unlock()
		return end
	}
	return nil
}

// ControlLine writes a command as one line of tmux's command language, each argument quoted so
// that tmux reads back exactly the string given: control bytes, DEL and bytes over 0x7f as octal
// escapes (tmux's parser reads a raw 0xff as the end of input), and \ " $ ~ # escaped so nothing
// is expanded. A string with NUL cannot be carried and is refused.
func ControlLine(cmd Cmd) ([]byte, error) {
	if len(cmd) == 0 {
		return nil, &Error{Code: CodeTmuxError, Stderr: "empty tmux command"}
	}
	var b []byte
	for i, arg := range cmd {
		if err := CheckArg(arg); err != nil {
			return nil, err
		}
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, '"')
		for j := 0; j < len(arg); j++ {
			c := arg[j]
			switch {
			case c < 0x20 || c >= 0x7f:
				b = append(b, '\\', '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
			case c == '\\' || c == '"' || c == '$' || c == '~' || c == '#':
				b = append(b, '\\', c)
			default:
				b = append(b, c)
			}
		}
		b = append(b, '"')
	}
	return append(b, '\n'), nil
}

// CheckArg refuses a string that tmux would not receive as one whole argument: a NUL ends a
// string in every tmux message, so whatever follows it would be read as further arguments
// (";" and a command of the sender's choosing).
func CheckArg(s string) error {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return &Error{Code: "bad_argument", Stderr: fmt.Sprintf("a NUL byte at offset %d of %q: tmux would split the argument there", i, s[:i])}
	}
	return nil
}

// read parses the client's output until it ends, then fails every call still waiting.
func (ctl *Control) read(r io.Reader, stderr *bytes.Buffer) {
	br := bufio.NewReaderSize(r, 256*1024)
	var line []byte
	var block *controlBlock
	var err error
	var attachErr, exitReason string
	for {
		line, err = readLine(br, line[:0])
		if err != nil {
			break
		}
		switch {
		case bytes.HasPrefix(line, []byte("%output ")):
			ctl.takeOutput(line[len("%output "):])
		case block != nil && block.ends(line):
			ctl.flushOutput() // output read before an answer is handed on before it
			if !block.ours && bytes.HasPrefix(line, []byte("%error ")) {
				attachErr = strings.TrimSpace(string(block.out))
			}
			ctl.answer(block, line)
			block = nil
		case block != nil:
			block.out = append(append(block.out, line...), '\n')
		case bytes.HasPrefix(line, []byte("%begin ")):
			block = beginBlock(line)
		case bytes.HasPrefix(line, []byte("%exit")):
			exitReason = strings.TrimSpace(string(line[len("%exit"):]))
			err = io.EOF
		}
		if err != nil {
			break
		}
		if br.Buffered() == 0 {
			// Nothing more is waiting: hand on what was gathered rather than wait for more.
			ctl.flushOutput()
		}
	}
	ctl.flushOutput()
	_ = ctl.proc.Wait()
	end := controlEnd(attachErr, exitReason, strings.TrimSpace(stderr.String()))
	if end.Code != CodeServerNotRunning && ctl.server != nil {
		// The client did not say why it ended (tmux 3.3a prints a bare %exit whether it was
		// detached or its server was killed): the server itself is asked, once.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if _, err := ctl.server.Run(ctx, Cmd{"display-message", "-p", "ok"}); IsServerGone(err) {
			end = &Error{Code: CodeServerNotRunning, Stderr: "the tmux control client has ended: " + err.Error()}
		}
		cancel()
	}
	ctl.mu.Lock()
	ctl.err = end
	calls := ctl.calls
	ctl.calls = nil
	ctl.mu.Unlock()
	for _, call := range calls {
		if call.then != nil {
			call.then("", end)
		}
		call.res <- controlResult{err: end}
	}
	close(ctl.done)
}

// controlEnd is the error of every call once a control client has ended. A client that ends
// says nothing of the server: someone may have detached it (detach-client, a kill of its
// process) while the server runs on, and a caller that took that for the server's end would give
// up on a server that is there. Only what the client printed tells the server is gone: its
// attach refused (no server, or no such session: attach-session starts a server that has
// nothing), the server's exit as its reason, or tmux's own message; else the server is asked.
func controlEnd(attachErr, exitReason, stderr string) *Error {
	switch {
	case attachErr != "":
		return &Error{Code: CodeServerNotRunning, Stderr: "the tmux control client could not attach: " + attachErr}
	case strings.HasPrefix(exitReason, "server exited"):
		return &Error{Code: CodeServerNotRunning, Stderr: "the tmux control client has ended: " + exitReason}
	case stderr != "":
		return classify(stderr)
	case exitReason != "":
		return &Error{Code: CodeTmuxError, Stderr: "the tmux control client has ended: " + exitReason}
	}
	return &Error{Code: CodeTmuxError, Stderr: "the tmux control client has ended"}
}

// readLine reads one line without its newline, however long.
func readLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		part, err := br.ReadSlice('\n')
		buf = append(buf, part...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return buf, err
		}
		return buf[:len(buf)-1], nil
	}
}

type controlBlock struct {
	guard []byte // "<time> <number>", which the block's %end or %error repeats
	ours  bool   // flags 1: the answer to a line this client sent
	out   []byte
}

func beginBlock(line []byte) *controlBlock {
	f := bytes.Fields(line)
	if len(f) < 4 {
		return &controlBlock{}
	}
	return &controlBlock{guard: append(append(append([]byte{}, f[1]...), ' '), f[2]...), ours: string(f[3]) == "1"}
}

func (b *controlBlock) ends(line []byte) bool {
	var rest []byte
	switch {
	case bytes.HasPrefix(line, []byte("%end ")):
		rest = line[len("%end "):]
	case bytes.HasPrefix(line, []byte("%error ")):
		rest = line[len("%error "):]
	default:
		return false
	}
	return len(b.guard) > 0 && bytes.HasPrefix(rest, b.guard) && len(rest) > len(b.guard) && rest[len(b.guard)] == ' '
}

func (ctl *Control) answer(b *controlBlock, end []byte) {
	if !b.ours {
		return // the attach's own answer
	}
	ctl.mu.Lock()
	if len(ctl.calls) == 0 {
		ctl.mu.Unlock()
		return
	}
	call := ctl.calls[0]
	ctl.calls = ctl.calls[1:]
	ctl.mu.Unlock()
	out := string(b.out)
	var err error
	if bytes.HasPrefix(end, []byte("%error ")) {
		err = classify(strings.TrimSpace(out))
		out = ""
	}
	if call.then != nil {
		call.then(out, err)
	}
	call.res <- controlResult{out: out, err: err}
}

// takeOutput decodes "%N data": tmux writes bytes below 0x20 and \ as \ooo, every other byte as
// itself.
func (ctl *Control) takeOutput(rest []byte) {
	sp := bytes.IndexByte(rest, ' ')
	if sp < 0 {
		return
	}
	id, data := string(rest[:sp]), rest[sp+1:]
	buf := ctl.pending[id]
	if len(buf) == 0 {
		ctl.order = append(ctl.order, id)
	}
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c == '\\' && i+3 < len(data) && isOctal(data[i+1]) && isOctal(data[i+2]) && isOctal(data[i+3]) {
			c = (data[i+1]-'0')<<6 | (data[i+2]-'0')<<3 | (data[i+3] - '0')
			i += 3
		}
		buf = append(buf, c)
	}
	ctl.pending[id] = buf
	if len(buf) >= 64*1024 {
		ctl.flushOutput()
	}
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

func (ctl *Control) flushOutput() {
	for _, id := range ctl.order {
		buf := ctl.pending[id]
		if len(buf) > 0 {
			ctl.output(id, buf)
		}
		if cap(buf) > 256*1024 {
			delete(ctl.pending, id) // a quiet pane does not keep a large buffer
		} else {
			ctl.pending[id] = buf[:0]
		}
	}
	ctl.order = ctl.order[:0]
}
