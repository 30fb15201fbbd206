package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/taw-tmux/taw/helper/filelock"
	"github.com/taw-tmux/taw/helper/herdrsock"
	"github.com/taw-tmux/taw/helper/integration"
	"github.com/taw-tmux/taw/helper/shellquote"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxconf"
	"github.com/taw-tmux/taw/helper/tmuxfmt"
	"github.com/urfave/cli/v2"
)

// taw herdr-socket: the server of herdr's socket protocol for one tmux server, which the plugin
// starts when @agent-wizard-herdr-socket is on. It is two processes: a keeper, the one per tmux
// server (it holds a lock in the server's lock folder), and the server it runs and starts again
// when it crashes. Both end when the tmux server does.
const (
	flagHerdrSocketPath  = "socket"
	flagHerdrSocketChild = "child"
)

func herdrSocketFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: flagHerdrSocketPath, Usage: "the socket's `path`"},
		&cli.BoolFlag{Name: flagHerdrSocketChild, Hidden: true, Usage: "be the server its keeper runs"},
	}
}

func (f *Factory) herdrSocket(c *cli.Context) error {
	path := c.String(flagHerdrSocketPath)
	if !filepath.IsAbs(path) {
		return UsageErrorf("herdr-socket needs --socket <absolute path>")
	}
	ctx, stop := signal.NotifyContext(c.Context, syscall.SIGTERM, syscall.SIGHUP, os.Interrupt)
	defer stop()
	if c.Bool(flagHerdrSocketChild) {
		return serveHerdrSocket(ctx, f, path)
	}
	return keepHerdrSocket(ctx, f, path)
}

func herdrSocketLock(dir string) string { return filepath.Join(dir, "herdr-socket.lock") }
func herdrSocketPid(dir string) string  { return filepath.Join(dir, "herdr-socket.pid") }
func herdrSocketLog(dir string) string  { return filepath.Join(dir, "herdr-socket.log") }

// keepHerdrSocket is the keeper: one per tmux server, it runs the server and starts it again
// when it ends any other way than the tmux server going or being told to stop.
func keepHerdrSocket(ctx context.Context, f *Factory, path string) error {
	dir := f.LockDir()
	if err := filelock.PrivateDir(dir); err != nil {
		return err
	}
	unlock, held, err := filelock.TryLock(herdrSocketLock(dir))
	if err != nil {
		return err
	}
	if held {
		return nil // this tmux server has its socket already
	}
	defer unlock()
	if err := writeFileAtomic(herdrSocketPid(dir), fmt.Sprintf("%d\n%s\n", f.Getpid(), path)); err != nil {
		return err
	}
	defer os.Remove(herdrSocketPid(dir))
	logw := io.Discard
	if lf, err := os.OpenFile(herdrSocketLog(dir), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600); err == nil {
		defer lf.Close()
		logw = lf
	}
	logf := herdrSocketLogf(logw)
	tmuxPid, err := tmuxServerPid(ctx, f.Tmux())
	if err != nil {
		return err
	}
	exe, err := f.Executable()
	if err != nil {
		return err
	}
	backoff := 100 * time.Millisecond
	for {
		cmd := exec.Command(exe, "-S", f.SocketPath(), "herdr-socket", "--"+flagHerdrSocketChild, "--"+flagHerdrSocketPath, path)
		cmd.Stdout, cmd.Stderr = logw, logw
		started := time.Now()
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("start the herdr socket server: %w", err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-ctx.Done():
			_ = cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-done:
			case <-time.After(3 * time.Second):
				_ = cmd.Process.Kill()
				<-done
			}
			return nil
		case err = <-done:
		}
		if !processAlive(tmuxPid) {
			return nil
		}
		if err == nil {
			return nil // it stopped on its own, as told
		}
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() == ExitError {
			// It returned an error (the socket's place refused, say): starting it again would
			// only fail again. A crash is a signal or a panic's exit status.
			logf("herdr socket server failed: not starting it again")
			return fmt.Errorf("the herdr socket server failed: see %s", herdrSocketLog(dir))
		}
		logf("herdr socket server ended (%v): starting it again", err)
		if time.Since(started) > 30*time.Second {
			backoff = 100 * time.Millisecond
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

// serveHerdrSocket is the server: it listens until told to stop, or until the tmux server or
// its keeper is gone.
func serveHerdrSocket(ctx context.Context, f *Factory, path string) error {
	c := f.Tmux()
	tmuxPid, err := tmuxServerPid(ctx, c)
	if err != nil {
		return err
	}
	ln, err := herdrsock.Listen(path)
	if err != nil {
		return err
	}
	defer ln.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	keeper := os.Getppid()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
			if !processAlive(tmuxPid) || os.Getppid() != keeper {
				cancel()
				return
			}
		}
	}()
	logf := herdrSocketLogf(f.IO.ErrOut)
	logf("herdr socket %d serving %s", f.Getpid(), path)
	h := &herdrsock.Handler{Tmux: c, LockDir: f.LockDir(), NowMillis: f.NowMillis, Version: Version, Logf: logf}
	return herdrsock.Serve(ctx, ln, h)
}

func herdrSocketLogf(w io.Writer) func(string, ...any) {
	return func(format string, args ...any) {
		fmt.Fprintf(w, "%s taw herdr-socket: %s\n", time.Now().Format("2006-01-02T15:04:05.000"), fmt.Sprintf(format, args...))
	}
}

func tmuxServerPid(ctx context.Context, c *tmux.Client) (int, error) {
	out, err := c.Output(ctx, "display-message", "-p", "#{pid}")
	if err != nil {
		return 0, err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil || pid <= 0 {
		return 0, fmt.Errorf("read the tmux server's pid: got %q", out)
	}
	return pid, nil
}

func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// runningHerdrSocket is the keeper of this tmux server and the socket it serves, 0 when none runs.
func runningHerdrSocket(dir string) (pid int, path string) {
	unlock, held, err := filelock.TryLock(herdrSocketLock(dir))
	if err != nil {
		return 0, ""
	}
	if !held {
		unlock()
		return 0, ""
	}
	b, err := os.ReadFile(herdrSocketPid(dir))
	if err != nil {
		return -1, ""
	}
	first, rest, _ := strings.Cut(string(b), "\n")
	pid, err = strconv.Atoi(first)
	if err != nil || pid <= 0 {
		return -1, ""
	}
	return pid, strings.TrimSuffix(rest, "\n")
}

func writeFileAtomic(path, content string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// herdrSocketStep applies @agent-wizard-herdr-socket when the plugin loads: on starts the
// server (a no-op when one runs from this binary for this path) and puts HERDR_SOCKET_PATH in
// tmux's global environment; off, or unload, stops it and removes the variable while it is still
// the socket's path.
var herdrSocketStep = loadStep{
	name: "herdr socket",
	run: func(ctx context.Context, l *loadContext) error {
		path := herdrsock.SocketPath(l.F.SocketPath(), l.F.Getenv)
		if !l.Settings.On(tmuxconf.SettingHerdrSocket) {
			return stopHerdrSocket(ctx, l, path)
		}
		if err := startHerdrSocket(ctx, l, path); err != nil {
			return err
		}
		return integration.ApplyHerdrSocket(ctx, l.Client, path, true)
	},
	unload: func(ctx context.Context, l *loadContext) error {
		return stopHerdrSocket(ctx, l, herdrsock.SocketPath(l.F.SocketPath(), l.F.Getenv))
	},
}

func startHerdrSocket(ctx context.Context, l *loadContext, path string) error {
	dir := l.F.LockDir()
	if pid, running := runningHerdrSocket(dir); pid != 0 {
		exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
		if pid < 0 || running == path && (err != nil || exe == l.Bin) {
			return nil // running, from this binary, for this path
		}
		if err := stopKeeper(ctx, dir, pid); err != nil {
			return err
		}
	}
	if err := herdrsock.PrivateDir(filepath.Dir(path)); err != nil {
		return err // said now, on the status line, rather than in a log nobody reads
	}
	sh := shellquote.Quoted(l.Bin) + " -S " + shellquote.Quoted(l.F.SocketPath()) + " herdr-socket --socket " + shellquote.Quoted(path) + " >/dev/null 2>&1 || true"
	_, err := l.Client.Run(ctx, tmux.Cmd{"run-shell", "-b", tmuxfmt.Literal(sh)})
	return err
}

func stopHerdrSocket(ctx context.Context, l *loadContext, path string) error {
	dir := l.F.LockDir()
	if pid, _ := runningHerdrSocket(dir); pid > 0 {
		if err := stopKeeper(ctx, dir, pid); err != nil {
			return err
		}
	}
	return integration.ApplyHerdrSocket(ctx, l.Client, path, false)
}

// stopKeeper stops the keeper pid and waits (briefly) for it and its server to let go.
func stopKeeper(ctx context.Context, dir string, pid int) error {
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("stop the herdr socket (pid %d): %w", pid, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if p, _ := runningHerdrSocket(dir); p != pid {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("the herdr socket (pid %d) did not stop within 5s", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
