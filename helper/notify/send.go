package notify

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/spawn"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxfmt"
)

// Channels, as their config keys name them.
const (
	ChannelTmuxMessage = "tmux_message"
	ChannelBell        = "bell"
	ChannelTerminal    = "terminal"
	ChannelDesktop     = "desktop"
	ChannelSound       = "sound"
)

// Delivery is one thing sent on one channel.
type Delivery struct {
	Channel string
	Target  string // a client's tty, or the program run
	Detail  string // what was sent
	Err     error
}

// Sender sends notifications on the enabled channels.
type Sender struct {
	Client   *tmux.Client
	LookPath func(string) (string, error)
	Environ  func() []string
	// OpenTTY opens a client's terminal for writing; nil opens the device.
	OpenTTY func(path string) (*os.File, error)
	Timeout time.Duration // per program run; 10s when zero
}

// attached is one client that can be written to.
type attached struct {
	tty, termname string
}

func (s *Sender) clients(ctx context.Context) ([]attached, error) {
	out, err := s.Client.Output(ctx, "list-clients", "-F", tmux.Row(tmux.Text("client_tty"), tmux.Text("client_termname"), "#{client_control_mode}"))
	if err != nil {
		return nil, err
	}
	var cs []attached
	for _, row := range strings.Split(out, "\n") {
		f := tmux.DecodeRow(row)
		if len(f) != 3 || f[0] == "" || f[2] == "1" {
			continue // control-mode clients have no terminal to write to
		}
		cs = append(cs, attached{tty: f[0], termname: f[1]})
	}
	return cs, nil
}

// Send delivers n on every channel cfg enables and says what it sent.
func (s *Sender) Send(ctx context.Context, n Notification, cfg config.Notify) []Delivery {
	var out []Delivery
	var clients []attached
	if cfg.TmuxMessage || cfg.Bell || cfg.Terminal {
		cs, err := s.clients(ctx)
		if err != nil {
			out = append(out, Delivery{Channel: "clients", Err: err})
		}
		clients = cs
	}
	if cfg.TmuxMessage {
		out = append(out, s.tmuxMessage(ctx, n, cfg, clients)...)
	}
	if cfg.Bell {
		for _, c := range clients {
			out = append(out, s.write(ChannelBell, c.tty, "\a", "BEL"))
		}
	}
	if cfg.Terminal {
		for _, c := range clients {
			seq := Escape(n, cfg.TerminalProtocol.Value, cfg.TerminalPassthrough.Value, c.termname)
			out = append(out, s.write(ChannelTerminal, c.tty, seq, strconv.Quote(seq)))
		}
	}
	if cfg.Desktop {
		if d, ok := s.desktop(ctx, n); ok {
			out = append(out, d)
		}
	}
	if cfg.Sound && len(cfg.SoundCommand) > 0 {
		out = append(out, s.run(ctx, ChannelSound, cfg.SoundCommand, n))
	}
	return out
}

func (s *Sender) tmuxMessage(ctx context.Context, n Notification, cfg config.Notify, clients []attached) []Delivery {
	if len(clients) == 0 {
		return nil
	}
	// display-message expands formats and times in its message; the text is the agent's.
	text := tmuxfmt.Message(clean("taw: " + n.Text()))
	ms := strconv.FormatInt(cfg.TmuxMessageDuration.Milliseconds(), 10)
	f, _ := s.Client.Features(ctx)
	cmds := make([]tmux.Cmd, 0, len(clients))
	for _, c := range clients {
		cmds = append(cmds, f.MessageCmd(c.tty, ms, text))
	}
	_, err := s.Client.Run(ctx, cmds...)
	out := make([]Delivery, 0, len(clients))
	for _, c := range clients {
		out = append(out, Delivery{Channel: ChannelTmuxMessage, Target: c.tty, Detail: "taw: " + n.Text(), Err: err})
	}
	return out
}

func (s *Sender) write(channel, tty, data, detail string) Delivery {
	d := Delivery{Channel: channel, Target: tty, Detail: detail}
	open := s.OpenTTY
	if open == nil {
		open = func(path string) (*os.File, error) {
			// Non-blocking: a terminal that does not read must not hold the watcher.
			return os.OpenFile(path, os.O_WRONLY|syscall.O_NOCTTY|syscall.O_NONBLOCK, 0)
		}
	}
	f, err := open(tty)
	if err != nil {
		d.Err = err
		return d
	}
	defer f.Close()
	// One write, so it does not land in the middle of what tmux writes to the same terminal.
	_, d.Err = f.WriteString(data)
	return d
}

func (s *Sender) desktop(ctx context.Context, n Notification) (Delivery, bool) {
	look := s.LookPath
	if look == nil {
		look = exec.LookPath
	}
	if _, err := look("notify-send"); err == nil {
		return s.run(ctx, ChannelDesktop, []string{"notify-send", "--app-name=taw", "--", clean(n.Title()), markup(clean(n.Body()))}, n), true
	}
	if _, err := look("terminal-notifier"); err == nil {
		return s.run(ctx, ChannelDesktop, []string{"terminal-notifier", "-title", n.Title(), "-message", n.Body(), "-group", "taw-" + n.PaneID}, n), true
	}
	return Delivery{}, false
}

func (s *Sender) run(ctx context.Context, channel string, argv []string, n Notification) Delivery {
	timeout := s.Timeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	environ := s.Environ
	if environ == nil {
		environ = os.Environ
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = spawn.Env(environ(), spawn.Invocation{PaneID: n.PaneID}, map[string]string{
		"TAW_NOTIFY_KIND":  string(n.Kind),
		"TAW_NOTIFY_TITLE": n.Title(),
		"TAW_NOTIFY_BODY":  n.Body(),
		"TAW_AGENT":        n.Agent,
	})
	out, err := cmd.CombinedOutput()
	d := Delivery{Channel: channel, Target: argv[0], Detail: fmt.Sprintf("%q", argv)}
	if err != nil {
		d.Err = fmt.Errorf("%s: %v %s", argv[0], err, strings.TrimSpace(string(out)))
	}
	return d
}
