package agentctl

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/taw-tmux/taw/helper/agents"
	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/prompt"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
)

// answerSettle is how long an answer waits for the dialog it answered to leave the screen: some
// agents redraw slowly (Qwen Code took 7 s). One whose report says it went on is taken at once.
const answerSettle = 15 * time.Second

// optAnswered keeps, while an answer's dialog has not been seen to go, when the answer's keys went
// and the dialog they answered: "<unix ms> <prompt JSON>". A second answer to that dialog within
// answerGuard types nothing: the first may still be taking.
const (
	optAnswered = "@agent_answered"
	answerGuard = time.Minute
)

// pendingAnswer is the dialog an earlier answer went to and how long ago, when that answer has
// not been seen taken.
func (c *Ctl) pendingAnswer(ctx context.Context, paneID string) (*prompt.Prompt, time.Duration) {
	out, err := c.Tmux.Output(ctx, "show-options", "-pqv", "-t", paneID, optAnswered)
	if err != nil {
		return nil, 0
	}
	at, enc, ok := strings.Cut(strings.TrimSpace(out), " ")
	ms, err := strconv.ParseInt(at, 10, 64)
	if !ok || err != nil {
		return nil, 0
	}
	return prompt.Decode(enc), time.Since(time.UnixMilli(ms))
}

// changedReads is how many reads in a row must show another dialog than the one on record
// before an answer is refused as prompt_changed.
const changedReads = 3

// MaxAnswerText bounds a typed answer: it goes in one tmux command.
const MaxAnswerText = 4096

// Answer is one answer to a dialog: an option's number, yes, no, or a typed text.
type Answer struct {
	Option  int
	Yes, No bool
	Text    string
}

// Answered is what an answer did.
type Answered struct {
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

// Sentence says what the answer did, for people.
func (res Answered) Sentence() string {
	next := "its dialog is gone"
	if res.Next != nil {
		next = "it now " + res.Next.Summary()
	}
	return "answered " + res.Agent + " in " + res.Target + ": " + strconv.Itoa(res.Answered.Number) + " " + res.Answered.Label + "; " + next
}

// Answer answers the dialog on record for p's agent, if it is still the one on screen: a dialog
// that changed, or one taw cannot read, is refused with nothing typed.
func (c *Ctl) Answer(ctx context.Context, p panestate.Pane, a Answer) (Answered, error) {
	var none Answered
	if p.State() != report.StateBlocked {
		return none, coded.Errorf(coded.AgentNotBlocked, "%s in %s is %s, not blocked: it waits on no dialog (nothing typed)", p.Agent(), p.Target(), ShownOrNone(p))
	}
	if a.Text != "" {
		if err := CheckTypedText(a.Text, MaxAnswerText); err != nil {
			return none, err
		}
	}
	if err := c.dialogSteady(ctx, p); err != nil {
		return none, err
	}
	locked, err := panestate.Lock(c.LockDir, p.ID)
	if err != nil {
		return none, err
	}
	// The lock covers reading the dialog, checking it and typing the answer; the wait for the
	// agent to take it runs without, so the agent's reports land meanwhile.
	var once sync.Once
	unlock := func() { once.Do(locked) }
	defer unlock()
	rec, err := c.RecordedPrompt(ctx, p)
	// A hook that fired before its agent drew the dialog leaves a record without options (a
	// question asked a moment ago): give the screen a moment to show it.
	for deadline := time.Now().Add(answerFieldWait); err == nil && rec != nil && len(rec.Options) == 0 && time.Now().Before(deadline); {
		select {
		case <-ctx.Done():
			return none, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		rec, err = c.RecordedPrompt(ctx, p)
	}
	if err != nil {
		return none, err
	}
	if rec == nil {
		return none, coded.Errorf(coded.PromptChanged, "taw cannot read the dialog %s in %s waits on (nothing typed); answer it in the pane (taw agent read %s shows it)", p.Agent(), p.Target(), p.ID)
	}
	choice, err := prompt.Choice(rec, a.Option, a.Yes, a.No, a.Text)
	if err != nil {
		return none, coded.Errorf(coded.InvalidArgument, "%s (nothing typed)", err)
	}
	// Read the screen again just before the keys go: only the dialog on record is answered. An
	// agent that redraws its dialog with every frame of a spinner (Qwen Code) can be caught half
	// drawn: a dialog is taken as changed only when it reads so a few times in a row.
	live, err := c.LivePrompt(ctx, p)
	for try := 1; err == nil && !prompt.Same(rec, live) && try < changedReads; try++ {
		select {
		case <-ctx.Done():
			return none, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		live, err = c.LivePrompt(ctx, p)
	}
	if err != nil {
		return none, err
	}
	if !prompt.Same(rec, live) {
		_ = c.recordPrompt(ctx, p, live)
		now := "no dialog taw can read"
		if live != nil {
			now = live.Summary()
		}
		return none, coded.Errorf(coded.PromptChanged, "the dialog changed since taw recorded it (nothing typed): %s %s now; look again with taw agent get %s", p.Agent(), now, p.ID)
	}
	if prev, ago := c.pendingAnswer(ctx, p.ID); prev != nil && ago < answerGuard && prompt.Same(prev, live) {
		return none, coded.Errorf(coded.AnswerPending, "an answer went to this dialog of %s in %s %s ago and it has not gone yet (nothing typed): the agent may still be taking it; look with taw agent read %s", p.Agent(), p.Target(), ago.Round(time.Second), p.ID)
	}
	updated := "" // the last report taken before the keys
	if q, err := panestate.Read(ctx, c.Tmux, p.ID); err == nil {
		updated = q.Options[panestate.OptUpdated]
	}
	steps := prompt.Keys(p.Agent(), live, choice, a.Text)
	mark := []tmux.Cmd{{"set-option", "-p", "-u", "-t", p.ID, panestate.OptPrompt},
		{"set-option", "-p", "-t", p.ID, optAnswered, strconv.FormatInt(time.Now().UnixMilli(), 10) + " " + rec.Encode()}}
	var keys []string
	if a.Text == "" {
		var cmds []tmux.Cmd
		cmds, keys = sendSteps(p.ID, steps)
		if _, err := c.Tmux.Run(ctx, append(cmds, mark...)...); err != nil {
			return none, err
		}
	} else if keys, err = c.typeAnswer(ctx, p, rec, steps, mark); err != nil {
		return none, err
	}
	unlock()
	res := Answered{OK: true, PaneID: p.ID, Target: p.Target(), Agent: p.Agent(), Answered: choice, Keys: keys, Prompt: rec}
	// The dialog answered must leave the screen; another may take its place. Two reads that
	// agree make the screen's word: an agent repaints in steps.
	deadline := time.Now().Add(answerSettle)
	var prev *prompt.Prompt
	seenGone := false
	setOff := "" // the @agent_updated of a report the answer set off
	for first := true; ; first = false {
		screen, err := Capture(ctx, c.Tmux, p.ID, 0)
		if err != nil {
			return none, err
		}
		after := prompt.Read(p.Agent(), screen)
		if !prompt.Same(after, rec) && !first && prompt.Same(after, prev) {
			if after != nil {
				res.Next = withHookMessage(after, p)
			}
			seenGone = true
			break
		}
		if next, ok := c.moved(ctx, p.ID, updated); ok {
			// The agent's own report says it went on, with the dialog still drawn: that report
			// is the one the answer set off.
			setOff = next
			break
		}
		prev = after
		if time.Now().After(deadline) {
			return none, coded.Errorf(coded.AnswerNotTaken, "sent %s to %s in %s, but its dialog is still on screen after %s; look with taw agent read %s", strings.Join(keys, " "), p.Agent(), p.Target(), answerSettle, p.ID)
		}
		select {
		case <-ctx.Done():
			return none, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	done := []tmux.Cmd{{"set-option", "-p", "-u", "-t", p.ID, optAnswered}}
	// The dialog the blocked report asked is gone, or the agent reported as it took the answer
	// with its dialog still drawn (that report was made as the answer went): the watcher, woken,
	// may let the screen correct that report at once rather than after its usual wait, and sets
	// a permission the answer granted working (panestate.AnswerTakenMark).
	taken := setOff
	if seenGone {
		taken = updated
	}
	if taken != "" {
		mark := panestate.AnswerTakenMark(taken, seenGone && prompt.Allows(rec, choice))
		done = append(done, tmux.Cmd{"set-option", "-p", "-t", p.ID, panestate.OptAnswerTaken, mark})
		done = append(done, tmux.SignalCmds(panestate.SignalChannel)...)
	}
	_, _ = c.Tmux.Run(ctx, done...)
	if q, err := panestate.Read(ctx, c.Tmux, p.ID); err == nil {
		res.State = ShownOrNone(q)
	}
	return res, nil
}

// answerFieldWait bounds each wait of a typed answer: for the cursor to reach the choice that
// takes text, and for the text to show in its field.
const answerFieldWait = 5 * time.Second

// typeAnswer sends a typed answer one step at a time, watching the screen: the cursor must be on
// the choice that takes text, or its field open, before the text goes, and the text must show in
// the field before the confirm key goes (with mark, the commands that record the answer). When
// any of these does not happen it presses nothing more and says so: a confirm pressed on a
// half-typed field would send a wrong answer.
func (c *Ctl) typeAnswer(ctx context.Context, p panestate.Pane, rec *prompt.Prompt, steps []prompt.Step, mark []tmux.Cmd) ([]string, error) {
	var keys []string
	for i, s := range steps {
		before, err := Capture(ctx, c.Tmux, p.ID, 0)
		if err != nil {
			return keys, err
		}
		if s.Field && prompt.FieldOpen(p.Agent(), before, rec) {
			// The keys that open the field would be typed into it, after what may be there.
			return keys, coded.Errorf(coded.AnswerTextNotTyped, "the field for a typed answer of %s in %s is open already and may hold someone's text (nothing typed); clear it in the pane, or answer there; look with taw agent read %s", p.Agent(), p.Target(), p.ID)
		}
		cmds, k := sendSteps(p.ID, []prompt.Step{s})
		if i == len(steps)-1 {
			cmds = append(cmds, mark...)
		}
		if _, err := c.Tmux.Run(ctx, cmds...); err != nil {
			return keys, err
		}
		keys = append(keys, k...)
		var ok bool
		switch {
		case i == len(steps)-1:
			ok = true
		case s.Select > 0:
			ok, err = c.screenSettles(ctx, p.ID, func(screen string) bool { return onChoice(p.Agent(), screen, rec, s.Select) })
			if err == nil && !ok {
				return keys, coded.Errorf(coded.AnswerTextNotTyped, "sent %s to %s in %s, but its cursor did not reach option %d within %s; nothing more pressed, no text typed; look with taw agent read %s", strings.Join(keys, " "), p.Agent(), p.Target(), s.Select, answerFieldWait, p.ID)
			}
		case s.Field:
			ok, err = c.screenSettles(ctx, p.ID, func(screen string) bool { return prompt.FieldOpen(p.Agent(), screen, rec) })
			if err == nil && !ok {
				return keys, coded.Errorf(coded.AnswerTextNotTyped, "sent %s to %s in %s, but the field for a typed answer did not open within %s; nothing more pressed, no text typed; look with taw agent read %s", strings.Join(keys, " "), p.Agent(), p.Target(), answerFieldWait, p.ID)
			}
		case s.Literal != "":
			ok, err = c.screenSettles(ctx, p.ID, func(screen string) bool { return prompt.Typed(before, screen, s.Literal) })
			if err == nil && !ok {
				return keys, coded.Errorf(coded.AnswerTextNotTyped, "sent %s to %s in %s, but the text did not show in its field within %s; nothing more pressed (the field may hold part of it); look with taw agent read %s", strings.Join(keys, " "), p.Agent(), p.Target(), answerFieldWait, p.ID)
			}
		default:
			// A key that opens the field: the text goes once the screen shows it took it.
			_, err = c.screenSettles(ctx, p.ID, func(screen string) bool { return screen != before })
		}
		if err != nil {
			return keys, err
		}
	}
	return keys, nil
}

// onChoice says whether the screen shows the dialog rec with its cursor on option n, or that
// dialog drawn another way (a choice that takes text often turns into a field when the cursor
// reaches it); a screen without rec's question is neither.
func onChoice(agentID, screen string, rec *prompt.Prompt, n int) bool {
	q := prompt.Read(agentID, screen)
	if q != nil && prompt.Same(q, rec) {
		return q.Selected == n
	}
	return rec.Question != "" && strings.Contains(screen, rec.Question)
}

// screenSettles waits, at most answerFieldWait, until two reads of the pane's screen in a row
// satisfy ok: an agent repaints in steps.
func (c *Ctl) screenSettles(ctx context.Context, paneID string, ok func(screen string) bool) (bool, error) {
	deadline := time.Now().Add(answerFieldWait)
	agree := 0
	for {
		screen, err := Capture(ctx, c.Tmux, paneID, 0)
		if err != nil {
			return false, err
		}
		if ok(screen) {
			if agree++; agree == 2 {
				return true, nil
			}
		} else {
			agree = 0
		}
		if time.Now().After(deadline) {
			return false, nil
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// An agent that has just drawn its dialog may not read keys yet (Claude Code 2.1.332 drops a key
// that comes while it draws, and the dialog stays up with the answer lost). So an answer waits
// until the dialog has been up for the agent's catalogue DialogSettle, then until two reads of it
// dialogSteady apart agree, within dialogSteadyMax: the check under the lock still answers only
// the dialog on record.
const (
	dialogSteady    = 200 * time.Millisecond
	dialogSteadyMax = 3 * time.Second
)

// dialogSteady waits until p's dialog has been up for the agent's settle time and reads the same
// twice. A dialog already on record has been up since the agent was blocked, at the latest;
// any other since this first read.
func (c *Ctl) dialogSteady(ctx context.Context, p panestate.Pane) error {
	settle := agents.DefaultDialogSettle
	if a, ok := agents.Lookup(p.Agent()); ok {
		settle = a.DialogSettle()
	}
	was, err := c.LivePrompt(ctx, p)
	if err != nil {
		return err
	}
	up := time.Now()
	if rec := prompt.Decode(p.Options[panestate.OptPrompt]); rec != nil && len(rec.Options) > 0 && prompt.Same(rec, was) {
		if since, err := strconv.ParseInt(p.Options[panestate.OptStateSince], 10, 64); err == nil {
			up = time.UnixMilli(since)
		}
	}
	if wait := time.Until(up.Add(time.Duration(settle) * time.Millisecond)); wait > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(min(wait, dialogSteadyMax)):
		}
	}
	deadline := time.Now().Add(dialogSteadyMax)
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(dialogSteady):
		}
		now, err := c.LivePrompt(ctx, p)
		if err != nil {
			return err
		}
		if now != nil && prompt.Same(was, now) {
			return nil
		}
		was = now
	}
	return nil
}

// moved says whether the agent went on after an answer though the dialog may still be drawn (an
// agent that redraws slowly): a report taken since the answer says it is no longer blocked.
func (c *Ctl) moved(ctx context.Context, paneID, updated string) (next string, ok bool) {
	q, err := panestate.Read(ctx, c.Tmux, paneID)
	if err != nil {
		return "", false
	}
	rec := q.Record()
	next = q.Options[panestate.OptUpdated]
	return next, rec.Source != "" && rec.ReportedState != report.StateBlocked && next != updated
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
