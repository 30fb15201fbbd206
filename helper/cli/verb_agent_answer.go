package cli

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/prompt"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/urfave/cli/v2"
)

const (
	flagOption = "option"
	flagYes    = "yes"
	flagNo     = "no"
	flagText   = "text"
)

// answerSettle is how long an answer waits for the dialog it answered to leave the screen.
const answerSettle = 5 * time.Second

// maxAnswerText bounds a typed answer: it goes in one tmux command.
const maxAnswerText = 4096

type agentAnswerOptions struct {
	Target  string
	Option  int
	Yes, No bool
	Text    string
	JSON    bool
}

func (f *Factory) agentAnswer(c *cli.Context, target string) error {
	opts := &agentAnswerOptions{Target: target, Yes: c.Bool(flagYes), No: c.Bool(flagNo), Text: c.String(flagText), JSON: wantJSON(f, c)}
	given := 0
	for _, set := range []bool{c.IsSet(flagOption), opts.Yes, opts.No, c.IsSet(flagText)} {
		if set {
			given++
		}
	}
	if given != 1 {
		return UsageErrorf("say one answer: --option N, --yes, --no or --text T")
	}
	if c.IsSet(flagOption) {
		n, err := strconv.Atoi(c.String(flagOption))
		if err != nil || n < 1 || n > 99 {
			return InvalidValuef("invalid --option %q (expected the number of one of the dialog's options)", c.String(flagOption))
		}
		opts.Option = n
	}
	if c.IsSet(flagText) {
		if err := checkTypedText(opts.Text, maxAnswerText); err != nil {
			return err
		}
	}
	return agentAnswerRun(c.Context, f, opts)
}

// checkTypedText refuses text that cannot be typed as it is: empty, too long, or holding
// control characters (an Escape or an Enter inside it would act on the dialog).
func checkTypedText(s string, limit int) error {
	switch {
	case strings.TrimSpace(s) == "":
		return Errorf(CodeInvalidArgument, "the text is empty")
	case len(s) > limit:
		return Errorf(CodeInvalidArgument, "the text is %d bytes; at most %d fit", len(s), limit)
	case strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f }):
		return Errorf(CodeInvalidArgument, "the text holds a control character; send plain text")
	}
	return nil
}

type answerResult struct {
	OK       bool           `json:"ok"`
	PaneID   string         `json:"pane_id"`
	Target   string         `json:"target"`
	Agent    string         `json:"agent"`
	Answered prompt.Option  `json:"answered"`
	Keys     []string       `json:"keys"`
	Prompt   *prompt.Prompt `json:"prompt"`      // the dialog answered
	State    string         `json:"state"`       // the agent's state after
	Next     *prompt.Prompt `json:"next_prompt"` // a dialog that came up after, if any
}

func agentAnswerRun(ctx context.Context, f *Factory, opts *agentAnswerOptions) error {
	p, err := resolveAgent(ctx, f, opts.Target)
	if err != nil {
		return err
	}
	res, err := answerAgent(ctx, f, p, opts)
	if err != nil {
		return err
	}
	if !opts.JSON {
		_, err := f.IO.Out.Write([]byte(res.Sentence() + "\n"))
		return err
	}
	return writeJSONLine(f.IO.Out, res)
}

// Sentence says what the answer did, for people.
func (res answerResult) Sentence() string {
	next := "its dialog is gone"
	if res.Next != nil {
		next = "it now " + res.Next.Summary()
	}
	return "answered " + res.Agent + " in " + res.Target + ": " + strconv.Itoa(res.Answered.Number) + " " + res.Answered.Label + "; " + next
}

// answerAgent answers the dialog on record for p's agent, if it is still the one on screen.
func answerAgent(ctx context.Context, f *Factory, p panestate.Pane, opts *agentAnswerOptions) (answerResult, error) {
	var none answerResult
	if p.State() != report.StateBlocked {
		return none, Errorf(CodeAgentNotBlocked, "%s in %s is %s, not blocked: it waits on no dialog (nothing typed)", p.Agent(), p.Target(), shownOrNone(p))
	}
	unlock, err := panestate.Lock(f.LockDir(), p.ID)
	if err != nil {
		return none, err
	}
	defer unlock()
	rec, err := recordedPrompt(ctx, f, p)
	if err != nil {
		return none, err
	}
	if rec == nil {
		return none, Errorf(CodePromptChanged, "taw cannot read the dialog %s in %s waits on (nothing typed); answer it in the pane (taw agent read %s shows it)", p.Agent(), p.Target(), p.ID)
	}
	choice, err := prompt.Choice(rec, opts.Option, opts.Yes, opts.No, opts.Text)
	if err != nil {
		return none, Errorf(CodeInvalidArgument, "%s (nothing typed)", err)
	}
	// Read the screen again just before the keys go: only the dialog on record is answered.
	live, err := livePrompt(ctx, f, p)
	if err != nil {
		return none, err
	}
	if !prompt.Same(rec, live) {
		_ = recordPrompt(ctx, f, p.ID, live)
		now := "no dialog taw can read"
		if live != nil {
			now = live.Summary()
		}
		return none, Errorf(CodePromptChanged, "the dialog changed since taw recorded it (nothing typed): %s %s now; look again with taw agent get %s", p.Agent(), now, p.ID)
	}
	steps := prompt.Keys(p.Agent(), live, choice, opts.Text)
	cmds, keys := sendSteps(p.ID, steps)
	cmds = append(cmds, tmux.Cmd{"set-option", "-p", "-u", "-t", p.ID, panestate.OptPrompt})
	if _, err := f.Tmux().Run(ctx, cmds...); err != nil {
		return none, err
	}
	res := answerResult{OK: true, PaneID: p.ID, Target: p.Target(), Agent: p.Agent(), Answered: choice, Keys: keys, Prompt: rec}
	// The dialog answered must leave the screen; another may take its place. Two reads that
	// agree make the screen's word: an agent repaints in steps.
	deadline := time.Now().Add(answerSettle)
	var prev *prompt.Prompt
	for first := true; ; first = false {
		screen, err := captureScreen(ctx, f.Tmux(), p.ID, 0)
		if err != nil {
			return none, err
		}
		after := prompt.Read(p.Agent(), screen)
		if !prompt.Same(after, rec) && !first && prompt.Same(after, prev) {
			if after != nil {
				res.Next = withHookMessage(after, p)
			}
			break
		}
		prev = after
		if time.Now().After(deadline) {
			return none, Errorf(CodeAnswerNotTaken, "sent %s to %s in %s, but its dialog is still on screen after %s; look with taw agent read %s", strings.Join(keys, " "), p.Agent(), p.Target(), answerSettle, p.ID)
		}
		select {
		case <-ctx.Done():
			return none, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	if q, err := panestate.Read(ctx, f.Tmux(), p.ID); err == nil {
		res.State = shownOrNone(q)
	}
	return res, nil
}

// sendSteps are the send-keys commands of an answer's steps, and the keys as people read them.
func sendSteps(paneID string, steps []prompt.Step) ([]tmux.Cmd, []string) {
	var cmds []tmux.Cmd
	var keys []string
	for _, s := range steps {
		if s.Literal != "" {
			cmds = append(cmds, tmux.Cmd{"send-keys", "-t", paneID, "-l", "--", s.Literal})
			keys = append(keys, strconv.Quote(s.Literal))
			continue
		}
		cmds = append(cmds, append(tmux.Cmd{"send-keys", "-t", paneID}, s.Keys...))
		keys = append(keys, s.Keys...)
	}
	return cmds, keys
}
