package cli

import (
	"context"
	"fmt"
	"os"
	"time"
	"unicode/utf8"

	"github.com/taw-tmux/taw/helper/attention"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/prompt"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/urfave/cli/v2"
)

// maxPromptText bounds a prompt; it goes to tmux in pieces of pasteChunk bytes.
const (
	maxPromptText = 256 * 1024
	pasteChunk    = 4096
)

// The text must show in the input this long after the paste before Enter goes (an agent that
// folds a paste into a placeholder never shows it: Enter goes then anyway). Enter once more
// when the prompt still sits in the input promptTakenWait after Enter, and give up when it still
// does promptRetryGrace after that: slow agents take seconds to redraw.
const (
	promptShownWait  = 2 * time.Second
	promptTakenWait  = 3 * time.Second
	promptRetryGrace = 7 * time.Second
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
	cmds = append(cmds, tmux.Cmd{"paste-buffer", "-p", "-d", "-b", buf, "-t", p.ID})
	if _, err := c.Run(ctx, cmds...); err != nil {
		_, _ = c.Run(context.WithoutCancel(ctx), tmux.Cmd{"delete-buffer", "-b", buf})
		return err
	}
	// Enter goes once the input shows the text: an Enter that arrives with the paste is taken
	// as part of it by some agents. typed is the screen with the prompt in the input.
	typed, err := shownTyped(ctx, f, p.ID, before, opts.Text)
	if err != nil {
		return err
	}
	if _, err := c.Run(ctx, tmux.Cmd{"send-keys", "-t", p.ID, "Enter"}); err != nil {
		return err
	}
	again, err := checkPromptTaken(ctx, f, p, opts.Text, typed)
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

// shownTyped waits, at most promptShownWait, for the pasted text's end to show on the pane's
// screen and returns the screen then; past the wait, the screen as it is.
func shownTyped(ctx context.Context, f *Factory, paneID, before, text string) (string, error) {
	tail := prompt.Tail(text)
	deadline := time.Now().Add(promptShownWait)
	for {
		screen, err := captureScreen(ctx, f.Tmux(), paneID, 0)
		if err != nil || prompt.Typed(before, screen, tail) || time.Now().After(deadline) {
			return screen, err
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// checkPromptTaken waits until the agent took the prompt: its state left idle, or its input
// line no longer holds the text (typed is the screen that showed it there before Enter). The
// screen decides, never the text's words alone: a taken prompt stays in the agent's history. A
// prompt that still sits in the input gets one more Enter; one that sits after that is not
// taken.
func checkPromptTaken(ctx context.Context, f *Factory, p panestate.Pane, text, typed string) (enterAgain bool, err error) {
	start := keyOf(p)
	look := func() (taken bool, err error) {
		q, err := panestate.Read(ctx, f.Tmux(), p.ID)
		if err != nil {
			return false, err
		}
		if keyOf(q) != start {
			return true, nil
		}
		screen, err := captureScreen(ctx, f.Tmux(), p.ID, 0)
		if err != nil {
			return false, err
		}
		return !prompt.StillTyped(typed, screen, text), nil
	}
	deadline := time.Now().Add(promptTakenWait)
	for {
		taken, err := look()
		if err != nil || taken {
			return enterAgain, err
		}
		if time.Now().After(deadline) {
			if enterAgain {
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
