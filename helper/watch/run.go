package watch

import (
	"context"
	"errors"
	"time"

	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/tmux"
)

// minSpacing keeps a storm of reports or hooks from turning into a storm of looks: wake-ups
// closer together than this share one look.
const minSpacing = 25 * time.Millisecond

// Run looks at every pane at the interval, and at once when a report changes a pane's state
// (panestate.SignalChannel) or a hook wakes the watcher (WakeChannel). each, when set, gets
// every look. Run returns nil when ctx ends or the server goes away; it never stops for one
// pane's trouble.
func (w *Watcher) Run(ctx context.Context, each func(*Look, Stats)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wake := make(chan struct{}, 1)
	for _, ch := range []string{panestate.SignalChannel, WakeChannel} {
		go w.waitLoop(ctx, ch, wake)
	}
	timer := time.NewTimer(0)
	defer timer.Stop()
	last := time.Time{}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-timer.C:
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
			if ctx.Err() != nil || serverGone(err) {
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
		timer.Reset(w.Interval())
	}
}

// waitLoop waits on a tmux wait-for channel and passes every signal on. A signal sent while no
// one waits leaves the channel woken, so the next wait returns at once: none is lost.
func (w *Watcher) waitLoop(ctx context.Context, channel string, wake chan<- struct{}) {
	c := *w.cfg.Client
	c.Timeout = 10 * time.Minute
	for ctx.Err() == nil {
		_, err := c.Run(ctx, tmux.Cmd{"wait-for", channel})
		if ctx.Err() != nil {
			return
		}
		select {
		case wake <- struct{}{}:
		default:
		}
		if err != nil {
			// The server may be gone (the next look finds out) or tmux refused: do not spin.
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
		}
	}
}

func serverGone(err error) bool {
	var te *tmux.Error
	return errors.As(err, &te) && te.Code == "server_not_running"
}

// ServerGone says whether an error means the tmux server is no longer there.
func ServerGone(err error) bool { return serverGone(err) }
