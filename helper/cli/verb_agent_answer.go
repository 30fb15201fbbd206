package cli

import (
	"context"
	"strconv"

	"github.com/taw-tmux/taw/helper/agentctl"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/urfave/cli/v2"
)

const (
	flagOption = "option"
	flagYes    = "yes"
	flagNo     = "no"
	flagText   = "text"
)

// maxAnswerText bounds a typed answer.
const maxAnswerText = agentctl.MaxAnswerText

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

// checkTypedText refuses text that cannot be typed as it is (see agentctl.CheckTypedText).
func checkTypedText(s string, limit int) error { return agentctl.CheckTypedText(s, limit) }

type answerResult = agentctl.Answered

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

// answerAgent answers the dialog on record for p's agent, if it is still the one on screen.
func answerAgent(ctx context.Context, f *Factory, p panestate.Pane, opts *agentAnswerOptions) (answerResult, error) {
	return f.agentCtl().Answer(ctx, p, agentctl.Answer{Option: opts.Option, Yes: opts.Yes, No: opts.No, Text: opts.Text})
}
