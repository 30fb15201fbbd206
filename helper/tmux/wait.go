package tmux

import (
	"context"
	"time"
)

// WaitLoop keeps one `wait-for channel` call open and passes each signal on to wake, never
// blocking on it, until ctx ends. A signal sent while no one waits leaves the channel woken, so
// the next wait returns at once and none is lost. After a failed wait (the server going, tmux
// refusing) it pauses for retry rather than spinning.
func (c *Client) WaitLoop(ctx context.Context, channel string, wake chan<- struct{}, retry time.Duration) {
	w := *c
	w.Timeout = 24 * time.Hour // a wait lasts until a signal; ctx ends it
	for ctx.Err() == nil {
		_, err := w.Run(ctx, Cmd{"wait-for", channel})
		if ctx.Err() != nil {
			return
		}
		select {
		case wake <- struct{}{}:
		default:
		}
		if err != nil {
			select {
			case <-ctx.Done():
				return
			case <-time.After(retry):
			}
		}
	}
}
