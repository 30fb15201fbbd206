package agentctl

import (
	"context"
	"fmt"
	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/ctrl"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/taw-tmux/taw/helper/attention"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/prompt"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
)

// MaxPromptText bounds a prompt; it goes to tmux in pieces of pasteChunk bytes.
const (
	MaxPromptText = 256 * 1024
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

// CheckTypedText refuses text that cannot be typed as it is: not UTF-8, empty, too long, or
// holding control characters (an Escape or an Enter inside it would act on the dialog).
func CheckTypedText(s string, limit int) error {
	switch {
	case !utf8.ValidString(s):
		return coded.Errorf(coded.InvalidArgument, "the text is not valid UTF-8")
	case strings.TrimSpace(s) == "":
		return coded.Errorf(coded.InvalidArgument, "the text is empty")
	case len(s) > limit:
		return coded.Errorf(coded.InvalidArgument, "the text is %d bytes; at most %d fit", len(s), limit)
	case ctrl.HasExcept(s, "\n\t"):
		return coded.Errorf(coded.InvalidArgument, "the text holds a control character (C0, DEL or C1) or a mark that changes text's direction; send plain text")
	}
	return nil
}

// Prompted is what a prompt did.
type Prompted struct {
	Pane       panestate.Pane // the agent's pane as it was before the prompt
	EnterAgain bool           // the prompt sat in the input and took a second Enter
}

// Prompt types text into the target agent's input as one paste and submits it. It refuses an
// agent that is blocked on a dialog (its record or its screen says so) or not at its input.
func (c *Ctl) Prompt(ctx context.Context, target, text string) (Prompted, error) {
	if err := CheckTypedText(text, MaxPromptText); err != nil {
		return Prompted{}, err
	}
	p, err := c.Resolve(ctx, target)
	if err != nil {
		return Prompted{}, err
	}
	if err := c.readyForPrompt(ctx, p); err != nil {
		return Prompted{Pane: p}, err
	}
	before, err := Capture(ctx, c.Tmux, p.ID, 0)
	if err != nil {
		return Prompted{Pane: p}, err
	}
	// A buffer of taw's own, for this call only; paste-buffer -d deletes it.
	buf := fmt.Sprintf("taw-prompt-%d-%d", os.Getpid(), time.Now().UnixNano())
	cmds := []tmux.Cmd{}
	for i, chunk := range chunks(text, pasteChunk) {
		cmd := tmux.Cmd{"set-buffer", "-b", buf}
		if i > 0 {
			cmd = append(cmd, "-a")
		}
		cmds = append(cmds, append(cmd, "--", chunk))
	}
	// -p: bracketed, when the agent asked for it, so the text is one paste and not typed keys.
	cmds = append(cmds, tmux.Cmd{"paste-buffer", "-p", "-d", "-b", buf, "-t", p.ID})
	if _, err := c.Tmux.Run(ctx, cmds...); err != nil {
		_, _ = c.Tmux.Run(context.WithoutCancel(ctx), tmux.Cmd{"delete-buffer", "-b", buf})
		return Prompted{Pane: p}, err
	}
	// Enter goes once the input shows the text: an Enter that arrives with the paste is taken
	// as part of it by some agents. typed is the screen with the prompt in the input.
	typed, err := c.shownTyped(ctx, p.ID, before, text)
	if err != nil {
		return Prompted{Pane: p}, err
	}
	if _, err := c.Tmux.Run(ctx, tmux.Cmd{"send-keys", "-t", p.ID, "Enter"}); err != nil {
		return Prompted{Pane: p}, err
	}
	again, err := c.checkPromptTaken(ctx, p, text, typed)
	return Prompted{Pane: p, EnterAgain: again}, err
}

// readyForPrompt refuses an agent that is not at its input: a prompt typed into a dialog would
// answer it.
func (c *Ctl) readyForPrompt(ctx context.Context, p panestate.Pane) error {
	if p.State() == report.StateBlocked {
		return coded.Errorf(coded.AgentBlocked, "%s in %s is blocked on a dialog; nothing typed (see it with taw agent get %s, answer it with taw agent answer)", p.Agent(), p.Target(), p.ID)
	}
	if live, err := c.LivePrompt(ctx, p); err != nil {
		return err
	} else if live != nil {
		return coded.Errorf(coded.AgentBlocked, "%s in %s shows a dialog: it %s; nothing typed", p.Agent(), p.Target(), live.Summary())
	}
	if s := attention.Shown(p); s != report.StateIdle && s != attention.StateDone {
		return coded.Errorf(coded.AgentNotReady, "%s in %s is %s, not at its input; nothing typed (wait for it with taw agent wait %s --until idle)", p.Agent(), p.Target(), ShownOrNone(p), p.ID)
	}
	return nil
}

// shownTyped waits, at most promptShownWait, for the pasted text's end to show on the pane's
// screen and returns the screen then; past the wait, the screen as it is.
func (c *Ctl) shownTyped(ctx context.Context, paneID, before, text string) (string, error) {
	tail := prompt.Tail(text)
	deadline := time.Now().Add(promptShownWait)
	for {
		screen, err := Capture(ctx, c.Tmux, paneID, 0)
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
func (c *Ctl) checkPromptTaken(ctx context.Context, p panestate.Pane, text, typed string) (enterAgain bool, err error) {
	start := keyOf(p)
	look := func() (taken bool, err error) {
		q, err := panestate.Read(ctx, c.Tmux, p.ID)
		if err != nil {
			return false, err
		}
		// Another state since the Enter says the agent took it, unless that state is idle again:
		// a record rewritten without leaving idle says nothing of the prompt.
		if keyOf(q) != start && q.State() != report.StateIdle {
			return true, nil
		}
		screen, err := Capture(ctx, c.Tmux, p.ID, 0)
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
				return true, coded.Errorf(coded.PromptNotTaken, "%s in %s did not take the prompt: it still sits in its input after Enter twice", p.Agent(), p.Target())
			}
			enterAgain = true
			if _, err := c.Tmux.Run(ctx, tmux.Cmd{"send-keys", "-t", p.ID, "Enter"}); err != nil {
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
