package cli

import (
	"context"
	"os"
	"strings"

	"github.com/taw-tmux/taw/helper/attention"
	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/popup"
	"github.com/taw-tmux/taw/helper/shellquote"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/urfave/cli/v2"
)

const flagOpen = "open"

type popupOptions struct {
	Client string
	Open   bool // open a tmux popup on the client running taw popup, rather than run here
}

func (f *Factory) popup(c *cli.Context) error {
	opts := &popupOptions{Client: c.String(flagClient), Open: c.Bool(flagOpen)}
	if opts.Open {
		return popupOpenRun(c.Context, f, opts)
	}
	return popupRun(c.Context, f, opts)
}

// popupOpenRun opens display-popup on the client, running taw popup inside it for that client.
// The command is given whole: display-popup does not expand formats in it (tmux 3.3a).
func popupOpenRun(ctx context.Context, f *Factory, opts *popupOptions) error {
	bin, err := f.Executable()
	if err != nil {
		return err
	}
	inner := []string{bin, "-S", f.SocketPath(), "popup"}
	if opts.Client != "" {
		inner = append(inner, "--client", opts.Client)
	}
	cmd := tmux.Cmd{"display-popup", "-E", "-w", "90%", "-h", "90%"}
	if feat, _ := f.Tmux().Features(ctx); feat.PopupTitle {
		cmd = append(cmd, "-T", " agents ")
	}
	if opts.Client != "" {
		cmd = append(cmd, "-c", opts.Client)
	}
	_, err = f.Tmux().Run(ctx, append(cmd, shellquote.QuotedLine(inner)))
	return err
}

func popupRun(ctx context.Context, f *Factory, opts *popupOptions) error {
	in, okIn := f.IO.In.(*os.File)
	out, okOut := f.IO.Out.(*os.File)
	if !okIn || !okOut || !f.IO.StdoutTTY {
		return Errorf(coded.InvalidArgument, "taw popup draws on a terminal and this is not one: press the popup key (prefix + A, or the key set in @agent-wizard-popup-key) or run taw popup --open")
	}
	c := f.Tmux()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wake := make(chan struct{}, 1)
	go c.WaitLoop(ctx, panestate.SignalChannel, wake, waitBackstop)
	choice, err := popup.Run(ctx, in, out, popupSource{f: f, c: c}, wake, f.Now, tawHint(f))
	if err != nil || choice == "" {
		return err
	}
	_, err = c.Run(ctx, jumpCmds(opts.Client, choice)...)
	return err
}

// popupSource feeds the popup from the panes' options, one tmux call per refresh.
type popupSource struct {
	f *Factory
	c *tmux.Client
}

func (s popupSource) Rows(ctx context.Context) ([]popup.Row, error) {
	panes, err := panestate.List(ctx, s.c)
	if err != nil {
		return nil, err
	}
	return popupRows(panes, s.f.Getenv("HOME")), nil
}

// popupRows are the agents of panes, most urgent first.
func popupRows(panes []panestate.Pane, home string) []popup.Row {
	ps := agentPanes(panes)
	attention.Order(ps)
	rows := make([]popup.Row, 0, len(ps))
	for _, p := range ps {
		v := newPaneView(p)
		r := popup.Row{
			PaneID: p.ID, Target: p.Target(), Window: p.WindowName,
			Agent: deref(v.AgentDisplay, p.Agent()), State: deref(v.State, ""),
			Dir: shortDir(p.Cwd, home), Message: deref(v.Message, ""),
		}
		if v.StateSince != nil {
			r.Since = timeFromMillis(*v.StateSince)
		}
		rows = append(rows, r)
	}
	return rows
}

func (s popupSource) Screen(ctx context.Context, paneID string) ([]string, error) {
	out, err := s.c.Output(ctx, "capture-pane", "-p", "-t", paneID)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(out, "\n")
	// A blocked agent's preview ends with what it asks, and the keys that answer it here: the
	// popup shows the bottom of the screen.
	if p, err := panestate.Read(ctx, s.c, paneID); err == nil {
		if q, err := recordedPrompt(ctx, s.f, p); err == nil && q != nil {
			lines = append(screenLines(out, 0), "", "asks: "+strings.TrimPrefix(q.Summary(), "asks: "), "answer: y yes · n no · 1-9 an option")
		}
	}
	return lines, nil
}

// Answer answers a blocked agent's dialog from the popup, through taw agent answer's checks.
func (s popupSource) Answer(ctx context.Context, paneID string, key rune) (string, error) {
	p, err := panestate.Read(ctx, s.c, paneID)
	if err != nil {
		return "", err
	}
	opts := &agentAnswerOptions{Target: paneID, Yes: key == 'y', No: key == 'n'}
	if key >= '1' && key <= '9' {
		opts.Option = int(key - '0')
	}
	res, err := answerAgent(ctx, s.f, p, opts)
	if err != nil {
		return "", err
	}
	return res.Sentence(), nil
}
