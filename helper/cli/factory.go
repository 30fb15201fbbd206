package cli

import (
	"context"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmux"
)

// IO is where a verb reads and writes; verbs never touch os.Stdout themselves.
type IO struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// StdoutTTY says whether Out is a terminal (human tables) or a pipe (plain rows).
	StdoutTTY bool
}

// Factory hands every verb its dependencies. System builds the real one; tests of argument
// parsing may build their own.
type Factory struct {
	Args       []string
	IO         IO
	Getenv     func(string) string
	Environ    func() []string
	Executable func() (string, error)
	LookPath   func(string) (string, error)
	Now        func() time.Time
	Getpid     func() int

	// TmuxGlobal names the server (-L name or -S path), from taw's own global flags.
	TmuxGlobal []string

	// parsed, set by a test of argument parsing, takes the options a verb parsed in place of
	// running it (see runOr).
	parsed func(opts any) error
}

// System is the Factory of a real run.
func System() *Factory {
	return &Factory{
		Args:       os.Args,
		IO:         IO{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr, StdoutTTY: isatty.IsTerminal(os.Stdout.Fd())},
		Getenv:     os.Getenv,
		Environ:    os.Environ,
		Executable: os.Executable,
		LookPath:   exec.LookPath,
		Now:        time.Now,
		Getpid:     os.Getpid,
	}
}

// Tmux is a client of the server taw was pointed at: -L/-S when given, else the one in $TMUX,
// else tmux's default.
func (f *Factory) Tmux() *tmux.Client {
	return &tmux.Client{Bin: f.Getenv("TAW_TMUX"), Global: f.TmuxGlobal}
}

// SocketPath is the server's socket, as tmux would pick it.
func (f *Factory) SocketPath() string { return tmux.SocketPath(f.TmuxGlobal, f.Getenv) }

// LockDir is where this server's pane locks live.
func (f *Factory) LockDir() string { return panestate.LockDir(f.SocketPath(), f.Getenv) }

// NowMillis is the current time in unix milliseconds.
func (f *Factory) NowMillis() int64 { return f.Now().UnixMilli() }

// paneIDPattern matches a pane id, %N. It is checked by hand rather than by a regexp: it is on the
// path of every report, and compiling a regexp at start-up costs more than the check.
var paneIDPattern paneIDMatcher

type paneIDMatcher struct{}

func (paneIDMatcher) MatchString(s string) bool {
	if len(s) < 2 || s[0] != '%' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// CallingPane is the word every pane verb reads as "the pane this command runs in".
const CallingPane = "%calling"

// ResolvePane turns a pane argument (%N, %calling, or any tmux target such as session:1.2) into a
// pane id.
func (f *Factory) ResolvePane(ctx context.Context, arg string) (string, error) {
	switch {
	case arg == "":
		return "", UsageErrorf("missing pane: name one as %%N, %s or session:window.pane", CallingPane)
	case arg == CallingPane:
		p := f.Getenv("TMUX_PANE")
		if !paneIDPattern.MatchString(p) {
			return "", Errorf(coded.InvalidArgument, "%s names the pane the command runs in, read from $TMUX_PANE, which is not set here: run it inside a tmux pane, or name the pane", CallingPane)
		}
		return p, nil
	case paneIDPattern.MatchString(arg):
		return arg, nil
	}
	id, err := f.Tmux().Output(ctx, "display-message", "-p", "-t", arg, "#{pane_id}")
	if err != nil {
		return "", err
	}
	if !paneIDPattern.MatchString(id) {
		return "", Errorf(tmux.CodePaneNotFound, "can't find pane: %s", arg)
	}
	return id, nil
}
