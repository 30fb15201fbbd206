package tmux

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/tmuxfmt"
)

// Cmd is one tmux command as an argument vector, e.g. {"set-option", "-p", "-t", "%1", "@x", "y"}.
type Cmd []string

// MaxCommandBytes is what one tmux client call may carry: the client sends its whole argv in one
// imsg of at most 16384 bytes, less a 16-byte header and a 4-byte argc (compat/imsg.h, client.c).
// Each argument costs its length plus a NUL.
const MaxCommandBytes = 16384 - 16 - 4

// Client runs tmux commands against one server.
type Client struct {
	Bin     string        // the tmux binary; "tmux" when empty
	Global  []string      // global flags naming the server: -L name or -S path
	Env     []string      // the client's environment; nil inherits the caller's
	Timeout time.Duration // per call; 10s when zero
}

// Error is a failed tmux call, classified.
type Error struct {
	Code   string // server_not_running, pane_not_found or tmux_error
	Stderr string
}

func (e *Error) Error() string     { return e.Stderr }
func (e *Error) ErrorCode() string { return e.Code }

// ArgvBytes is what the argument vector costs in the client's message.
func ArgvBytes(argv []string) int {
	n := 0
	for _, a := range argv {
		n += len(a) + 1
	}
	return n
}

// Run joins cmds with ";" into as few client calls as fit tmux's message limit and returns what
// they printed. Commands run in order; a call that fails stops the rest.
func (c *Client) Run(ctx context.Context, cmds ...Cmd) (string, error) {
	var out strings.Builder
	for _, batch := range c.batches(cmds) {
		s, err := c.exec(ctx, batch)
		out.WriteString(s)
		if err != nil {
			return out.String(), err
		}
	}
	return out.String(), nil
}

// Output runs one command and returns its output without the final newline.
func (c *Client) Output(ctx context.Context, cmd ...string) (string, error) {
	s, err := c.Run(ctx, Cmd(cmd))
	return strings.TrimSuffix(s, "\n"), err
}

func (c *Client) batches(cmds []Cmd) [][]string {
	base := ArgvBytes(append([]string{c.bin()}, c.Global...))
	var all [][]string
	var cur []string
	size := base
	for _, cmd := range cmds {
		escaped := tmuxfmt.EscapeArgs(cmd)
		cost := ArgvBytes(escaped)
		if len(cur) > 0 && size+cost+2 > MaxCommandBytes {
			all = append(all, cur)
			cur, size = nil, base
		}
		if len(cur) > 0 {
			cur = endCommand(cur)
			size += 2
		}
		cur = append(cur, escaped...)
		size += cost
	}
	if len(cur) > 0 {
		all = append(all, cur)
	}
	return all
}

// endCommand ends the last command of argv. tmux reads an argument that ends in ";" as the
// argument less the ";", then the end of the command; so the ";" goes onto the last argument
// wherever that reads back the same. A ";" of its own is the other way to end a command, but
// tmux 3.3 and 3.3a never free the copy they make of it (cmd_parse_from_arguments, fixed in 3.4):
// 32 bytes of the server's heap at every separator, for as long as it runs, which made the
// server grow by kilobytes a minute under reporting agents. An argument that is empty or ends
// in ";" or "\" would read differently, and gets the ";" of its own.
func endCommand(argv []string) []string {
	last := argv[len(argv)-1]
	if last == "" || strings.HasSuffix(last, ";") || strings.HasSuffix(last, `\`) {
		return append(argv, ";")
	}
	argv[len(argv)-1] = last + ";"
	return argv
}

func (c *Client) bin() string {
	if c.Bin != "" {
		return c.Bin
	}
	return "tmux"
}

func (c *Client) exec(ctx context.Context, args []string) (string, error) {
	timeout := c.Timeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	if c.native() {
		env := c.Env
		if env == nil {
			env = os.Environ()
		}
		stdout, stderr, status, err := nativeRun(ctx, SocketPath(c.Global, getenvFrom(env)), args, env, timeout)
		switch {
		case err == nil && status == 0:
			return stdout, nil
		case err == nil:
			return stdout, classify(strings.TrimSpace(stderr))
		case !errors.Is(err, errProtocol):
			var te *Error
			if errors.As(err, &te) && !(te.Code == CodeServerNotRunning && startsServer(args)) {
				return stdout, te
			}
			// Anything else (a socket that is not tmux's, a permission problem) is for the
			// tmux binary to explain.
		}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin(), append(append([]string{}, c.Global...), args...)...)
	if c.Env != nil {
		cmd.Env = c.Env
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Stdin = nil
	err := cmd.Run()
	if err == nil {
		return stdout.String(), nil
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return stdout.String(), &Error{Code: CodeTmuxError, Stderr: fmt.Sprintf("tmux did not answer within %s", timeout)}
	}
	var execErr *exec.Error
	if errors.As(err, &execErr) {
		return "", &Error{Code: CodeTmuxError, Stderr: fmt.Sprintf("cannot run tmux (%s): install tmux or put it on PATH", execErr.Err)}
	}
	return stdout.String(), classify(strings.TrimSpace(stderr.String()))
}

func classify(msg string) *Error {
	switch {
	case strings.HasPrefix(msg, "no server running"),
		strings.HasPrefix(msg, "error connecting to"),
		strings.Contains(msg, "server exited unexpectedly"):
		return &Error{Code: CodeServerNotRunning, Stderr: "no tmux server is running here (" + msg + "): run taw inside tmux, or name a server with -L or -S"}
	case strings.HasPrefix(msg, "can't find pane"),
		strings.HasPrefix(msg, "can't find window"),
		strings.HasPrefix(msg, "can't find session"),
		strings.HasPrefix(msg, "no such pane"),
		strings.HasPrefix(msg, "no such window"),
		strings.HasPrefix(msg, "no such session"):
		return &Error{Code: CodePaneNotFound, Stderr: msg}
	}
	if msg == "" {
		msg = "tmux failed with no message"
	}
	return &Error{Code: CodeTmuxError, Stderr: msg}
}

// SocketPath is the path of the server's socket as tmux itself would pick it: -S, then -L under
// $TMUX_TMPDIR, then the socket in $TMUX, then "default".
func SocketPath(global []string, getenv func(string) string) string {
	name := "default"
	for i := 0; i+1 < len(global); i++ {
		switch global[i] {
		case "-S":
			return global[i+1]
		case "-L":
			name = global[i+1]
		}
	}
	if !containsFlag(global, "-L") {
		if t := getenv("TMUX"); t != "" {
			if i := strings.IndexByte(t, ','); i > 0 {
				return t[:i]
			}
			return t
		}
	}
	dir := getenv("TMUX_TMPDIR")
	if dir == "" {
		dir = "/tmp"
	}
	return filepath.Join(dir, fmt.Sprintf("tmux-%d", os.Getuid()), name)
}

func containsFlag(args []string, flag string) bool {
	for _, a := range args {
		if a == flag {
			return true
		}
	}
	return false
}

// native says whether calls go over the socket directly: always, unless a tmux binary of the
// user's choice was named (TAW_TMUX) or TAW_TMUX_EXEC=1 asks for the binary.
func (c *Client) native() bool {
	return c.Bin == "" && os.Getenv("TAW_TMUX_EXEC") != "1"
}

func getenvFrom(env []string) func(string) string {
	return func(k string) string { return envValue(env, k, "") }
}

// startsServer says whether a call would start a server when none runs, which only the tmux
// binary can do.
func startsServer(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "new-session", "new", "start-server", "start":
		return true
	}
	return false
}
