package cli

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/taw-tmux/taw/helper/agentctl"
	"github.com/taw-tmux/taw/helper/coded"
	"github.com/urfave/cli/v2"
)

// maxPromptText bounds a prompt.
const maxPromptText = agentctl.MaxPromptText

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
		return Errorf(coded.InvalidArgument, "the prompt is not valid UTF-8")
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
		w.Changed, w.Settle = true, agentctl.PromptSettle
		opts.Wait = w
	}
	return agentPromptRun(c.Context, f, opts)
}

func agentPromptRun(ctx context.Context, f *Factory, opts *agentPromptOptions) error {
	if err := needTarget(opts.Target); err != nil {
		return err
	}
	res, err := f.agentCtl().Prompt(ctx, opts.Target, opts.Text)
	if err != nil {
		return err
	}
	p := res.Pane
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
	}{true, p.ID, p.Target(), p.Agent(), res.EnterAgain})
}
