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

// lostSignalPoll is how often the watcher checks for a wake-up tmux lost between two waits.
const lostSignalPoll = 20 * time.Second

// FrontInterval is how often, between looks, the watcher checks what runs in front of each pane
// (FrontMoved): a program that starts or an agent that ends is seen within it, not a whole
// interval later.
const FrontInterval = 250 * time.Millisecond

// Run looks at every pane at the interval, and at once when a report changes a pane's state
// (panestate.SignalChannel), a hook wakes the watcher (WakeChannel) or what runs in front of a
// pane changed (FrontMoved, checked every FrontInterval). each, when set, gets every look. Run
// returns nil when ctx ends or the server goes away; it never stops for one pane's trouble.
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
	front := time.NewTicker(FrontInterval)
	defer front.Stop()
	last := time.Time{}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-timer.C:
		case <-front.C:
			if !w.FrontMoved() {
				continue
			}
		case <-wake:
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
		timer.Reset(w.NextLook(time.Now()))
	}
}

// FrontMoved says whether what runs in front of a pane has changed since the last look probed
// it: a program started at a shell's prompt, or the agent in front ended or ran another program.
// It costs one read of a stat file the watcher keeps open per pane, and no tmux call.
func (w *Watcher) FrontMoved() bool {
	for _, m := range w.memo {
		if !m.probed || m.front.PID <= 0 {
			continue
		}
		if mark, err := w.marks.Read(m.front.PID); err != nil || mark != m.front {
			return true
		}
	}
	return false
}
