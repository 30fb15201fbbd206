package watch

import (
	"context"
	"time"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmux"
)

// minSpacing keeps a storm of reports or hooks from turning into a storm of looks: wake-ups
// closer together than this share one look.
const minSpacing = 25 * time.Millisecond

// reportFollowUp is how soon after a look a report woke the next look comes: an agent draws
// what its report announced a moment after the report (Copilot CLI's error line 0.2 s after the
// prompt's hook), and a screen that contradicts the report can only start to count once a look
// has read it (see countScreen).
const reportFollowUp = 300 * time.Millisecond

// followUp is when the next look is due after one: next, or sooner after a look a wake-up (a
// report, a hook) brought.
func followUp(next time.Duration, woken bool) time.Duration {
	if woken {
		return min(next, reportFollowUp)
	}
	return next
}

// lostSignalPoll is how often the watcher checks for a wake-up tmux lost between two waits.
const lostSignalPoll = 20 * time.Second

// Run looks at every pane at the interval, and at once when a report changes a pane's state
// (panestate.SignalChannel) or a hook wakes the watcher (WakeChannel). each, when set, gets
// every look. Run returns nil when ctx ends or the server goes away; it never stops for one
// pane's trouble.
func (w *Watcher) Run(ctx context.Context, each func(*Look, Stats)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wake := make(chan struct{}, 1)
	// A signal tmux lost only delays a look to the next interval, which comes anyway: polling
	// for one every second put two more commands a second in the person's message log.
	for _, ch := range []string{panestate.SignalChannel, WakeChannel} {
		go w.cfg.Client.WaitLoop(ctx, ch, wake, lostSignalPoll)
	}
	timer := time.NewTimer(0)
	defer timer.Stop()
	last := time.Time{}
	for {
		woken := false
		select {
		case <-ctx.Done():
			return nil
		case <-timer.C:
		case <-wake:
			woken = true
			if d := minSpacing - time.Since(last); d > 0 {
				select {
				case <-ctx.Done():
					return nil
				case <-time.After(d):
				}
			}
		}
		last = time.Now()
		look, st, err := w.Look(ctx)
		if err != nil {
			if ctx.Err() != nil || tmux.IsServerGone(err) {
				return nil
			}
			w.logf("look: %v", err)
		} else if each != nil {
			each(look, st)
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(followUp(w.NextLook(time.Now()), woken))
	}
}
