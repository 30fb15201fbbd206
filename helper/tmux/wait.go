package tmux

import (
	"context"
	"time"
)

// WaitLoop passes each signal of channel (see SignalCmds) on to wake, never blocking on it, until
// ctx ends. It keeps one `wait-for channel` call open, and also wakes when the channel's
// generation has moved: as each wait starts (a signal tmux lost in the gap between two waits,
// or took for a killed waiter, is seen there), and every poll while a wait is open. A waiter
// that starts after the channel was ever signalled wakes once at once. After a failed wait (the
// server going, tmux refusing) it pauses for poll rather than spinning.
func (c *Client) WaitLoop(ctx context.Context, channel string, wake chan<- struct{}, poll time.Duration) {
	w := *c
	w.Timeout = 24 * time.Hour // a wait lasts until a signal; ctx ends it
	notify := func() {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	seen := ""
	moved := func() bool {
		g, err := c.Output(ctx, "display-message", "-p", "#{"+WakeOption(channel)+"}")
		if err != nil || g == seen {
			return false
		}
		seen = g
		return true
	}
	for ctx.Err() == nil {
		done := make(chan error, 1)
		go func() {
			_, err := w.Run(ctx, Cmd{"wait-for", channel})
			done <- err
		}()
		if moved() {
			notify()
		}
		ticker := time.NewTicker(poll)
		err := waitOne(ctx, done, ticker.C, func() {
			if moved() {
				notify()
			}
		})
		ticker.Stop()
		if ctx.Err() != nil {
			return
		}
		moved()
		notify()
		if err != nil {
			select {
			case <-ctx.Done():
				return
			case <-time.After(poll):
			}
		}
	}
}

// waitOne waits for the open wait-for call to end, calling tick at every tick meanwhile.
func waitOne(ctx context.Context, done <-chan error, ticks <-chan time.Time, tick func()) error {
	for {
		select {
		case err := <-done:
			return err
		case <-ticks:
			tick()
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
