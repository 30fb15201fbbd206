package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/taw-tmux/taw/helper/attention"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/urfave/cli/v2"
)

// maxPromptText bounds a prompt; it goes to tmux in pieces of pasteChunk bytes.
const (
	maxPromptText = 256 * 1024
	pasteChunk    = 4096
)

// Enter once more when the prompt still sits in the input this long after it was sent, and
// give up when it still does this long after that.
const (
	promptTakenWait  = 1500 * time.Millisecond
	promptRetryGrace = 3 * time.Second
)

type agentPromptOptions struct {
	Target string
	Text   string
	Wait   *agentWaitOptions // nil: return once the prompt is taken
	JSON   bool
}

func agentPromptFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: flagWait, Usage: "then wait like taw agent wait (for the end of the turn, or --until)"},
		untilFlag("with --wait: a `<state>` that ends the wait (repeatable)"),
		timeoutFlag("with --wait: give up after `<duration>`"),
		jsonFlag(),
	}
}

func (f *Factory) agentPrompt(c *cli.Context) error {
	positional, _, _ := splitArgs(c)
	if len(positional) != 2 {
		return UsageErrorf("agent prompt takes a target and the text: taw agent prompt <pane|agent> <text>")
	}
	opts := &agentPromptOptions{Target: positional[0], Text: positional[1], JSON: wantJSON(f, c)}
	if !utf8.ValidString(opts.Text) {
		return Errorf(CodeInvalidArgument, "the prompt is not valid UTF-8")
	}
	if err := checkTypedText(opts.Text, maxPromptText); err != nil {
		return err
	}
	if (c.IsSet(flagUntil) || c.IsSet(flagTimeout)) && !c.Bool(flagWait) {
		return UsageErrorf("--until and --timeout go with --wait")
	}
	if c.Bool(flagWait) {
		w, err := parseWaitFlags(c, opts.Target)
		if err != nil {
			return err
		}
		w.Changed = true
		opts.Wait = w
	}
	return agentPromptRun(c.Context, f, opts)
}

func agentPromptRun(ctx context.Context, f *Factory, opts *agentPromptOptions) error {
	p, err := resolveAgent(ctx, f, opts.Target)
	if err != nil {
		return err
	}
	if err := readyForPrompt(ctx, f, p); err != nil {
		return err
	}
	before, err := captureScreen(ctx, f.Tmux(), p.ID, 0)
	if err != nil {
		return err
	}
	// A buffer of taw's own, for this call only; paste-buffer -d deletes it.
	buf := fmt.Sprintf("taw-prompt-%d-%d", os.Getpid(), time.Now().UnixNano())
	c := f.Tmux()
	cmds := []tmux.Cmd{}
	for i, chunk := range chunks(opts.Text, pasteChunk) {
		cmd := tmux.Cmd{"set-buffer", "-b", buf}
		if i > 0 {
			cmd = append(cmd, "-a")
		}
		cmds = append(cmds, append(cmd, "--", chunk))
	}
	// -p: bracketed, when the agent asked for it, so the text is one paste and not typed keys.
	cmds = append(cmds, tmux.Cmd{"paste-buffer", "-p", "-d", "-b", buf, "-t", p.ID}, tmux.Cmd{"send-keys", "-t", p.ID, "Enter"})
	if _, err := c.Run(ctx, cmds...); err != nil {
		_, _ = c.Run(context.WithoutCancel(ctx), tmux.Cmd{"delete-buffer", "-b", buf})
		return err
	}
	again, err := checkPromptTaken(ctx, f, p, opts.Text, before)
	if err != nil {
		return err
	}
	if opts.Wait != nil {
		return agentWaitRun(ctx, f, opts.Wait)
	}
	if !opts.JSON {
		_, err := fmt.Fprintf(f.IO.Out, "sent the prompt to %s in %s\n", p.Agent(), p.Target())
		return err
	}
	return writeJSONLine(f.IO.Out, struct {
		OK         bool   `json:"ok"`
		PaneID     string `json:"pane_id"`
		Target     string `json:"target"`
		Agent      string `json:"agent"`
		EnterAgain bool   `json:"enter_again"`
	}{true, p.ID, p.Target(), p.Agent(), again})
}

// readyForPrompt refuses an agent that is not at its input: a prompt typed into a dialog would
// answer it.
func readyForPrompt(ctx context.Context, f *Factory, p panestate.Pane) error {
	if p.State() == report.StateBlocked {
		return Errorf(CodeAgentBlocked, "%s in %s is blocked on a dialog; nothing typed (see it with taw agent get %s, answer it with taw agent answer)", p.Agent(), p.Target(), p.ID)
	}
	if live, err := livePrompt(ctx, f, p); err != nil {
		return err
	} else if live != nil {
		return Errorf(CodeAgentBlocked, "%s in %s shows a dialog: it %s; nothing typed", p.Agent(), p.Target(), live.Summary())
	}
	if s := attention.Shown(p); s != report.StateIdle && s != attention.StateDone {
		return Errorf(CodeAgentNotReady, "%s in %s is %s, not at its input; nothing typed (wait for it with taw agent wait %s --until idle)", p.Agent(), p.Target(), shownOrNone(p), p.ID)
	}
	return nil
}

// checkPromptTaken waits until the agent took the prompt: its state left idle, or the text is
// not at the bottom of its screen while the screen moved on from before (the screen as it was
// before the paste). A prompt that still sits in the input gets one more Enter. An agent that
// never shows the text (some fold a long paste into a placeholder) is taken at its word once
// the wait is over.
func checkPromptTaken(ctx context.Context, f *Factory, p panestate.Pane, text, before string) (enterAgain bool, err error) {
	start := keyOf(p)
	tail := lastLine(text)
	seen := false
	// sits says whether the prompt still sits unsent; moved, whether the agent took it.
	look := func() (moved, sits bool, err error) {
		q, err := panestate.Read(ctx, f.Tmux(), p.ID)
		if err != nil {
			return false, false, err
		}
		if keyOf(q) != start {
			return true, false, nil
		}
		screen, err := captureScreen(ctx, f.Tmux(), p.ID, 0)
		if err != nil {
			return false, false, err
		}
		end := bottom(screen, 6)
		shown := strings.Contains(end, tail)
		if shown {
			seen = true
		}
		// The text's start at the end of the screen is a paste still being drawn, not one taken.
		partial := endsWithStart(screen, text)
		return !shown && !partial && (seen || screen != before), shown, nil
	}
	deadline := time.Now().Add(promptTakenWait)
	for {
		moved, sits, err := look()
		if err != nil || moved {
			return enterAgain, err
		}
		if time.Now().After(deadline) {
			switch {
			case !sits:
				return enterAgain, nil
			case enterAgain:
				return true, Errorf(CodePromptNotTaken, "%s in %s did not take the prompt: it still sits in its input after Enter twice", p.Agent(), p.Target())
			}
			enterAgain = true
			if _, err := f.Tmux().Run(ctx, tmux.Cmd{"send-keys", "-t", p.ID, "Enter"}); err != nil {
				return true, err
			}
			deadline = time.Now().Add(promptRetryGrace)
		}
		select {
		case <-ctx.Done():
			return enterAgain, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// lastLine is the text's last non-blank line, cut to what a narrow input line shows of it.
func lastLine(text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	l := strings.TrimSpace(lines[len(lines)-1])
	if r := []rune(l); len(r) > 24 {
		l = string(r[len(r)-24:])
	}
	return l
}

// endsWithStart says whether the screen's last text ends with the start of text.
func endsWithStart(screen, text string) bool {
	lines := screenLines(screen, 0)
	if len(lines) == 0 {
		return false
	}
	last := strings.TrimRight(lines[len(lines)-1], " ")
	start := strings.SplitN(text, "\n", 2)[0]
	for k := min(len(last), len(start)); k > 0; k-- {
		if utf8.RuneStart(start[k%len(start)]) && strings.HasSuffix(last, start[:k]) {
			return true
		}
	}
	return false
}

// bottom is the last n non-blank lines of a screen.
func bottom(screen string, n int) string {
	lines := screenLines(screen, 0)
	var out []string
	for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
		if strings.TrimSpace(lines[i]) != "" {
			out = append(out, lines[i])
		}
	}
	return strings.Join(out, "\n")
}

// chunks cuts s into pieces of at most n bytes, never inside a character.
func chunks(s string, n int) []string {
	var out []string
	for len(s) > n {
		i := n
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return append(out, s)
}
