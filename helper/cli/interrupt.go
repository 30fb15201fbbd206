package cli

import (
	"context"
	"os"
	"os/signal"
	"time"
)

// interruptDelay is how long a call runs before an interrupt cancels its context rather than
// ending taw. Catching interrupts costs a thread of its own at start-up, a fifth of the start
// of a report or a hook, which end well within it; a verb that waits longer gets the interrupt
// as a cancelled context, and ends with ExitInterrupted. Either way the exit status is 130.
const interruptDelay = 50 * time.Millisecond

// interruptible is the context a call runs in: cancelled by an interrupt once the call has run
// for interruptDelay (a second interrupt then ends taw), and by stop.
func interruptible() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	timer := time.AfterFunc(interruptDelay, func() {
		sig, unhook := signal.NotifyContext(ctx, os.Interrupt)
		go func() {
			<-sig.Done()
			unhook()
			cancel()
		}()
	})
	return ctx, func() {
		timer.Stop()
		cancel()
	}
}
