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

// maxExitWatches bounds the processes watched for their end (watchExits), each an open file:
// past it, an agent's end is seen at the next look.
const maxExitWatches = 128

// maxWatchedMembers bounds the processes of an agent's foreground group watched beside its
// leader.
const maxWatchedMembers = 3

// Run looks at every pane at the interval, and at once when a report changes a pane's state
// (panestate.SignalChannel), a hook wakes the watcher (WakeChannel) or the process in front of
// an agent's pane ends (watchExits). each, when set, gets every look. Run returns nil when ctx
// ends or the server goes away; it never stops for one pane's trouble.
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
	defer w.stopExits()
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
			if ctx.Err() != nil || tmux.IsServerGone(err) {
				return nil
			}
			w.logf("look: %v", err)
		} else if each != nil {
			each(look, st)
		}
		w.watchExits(wake)
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(w.NextLook(time.Now()))
	}
}

// watchExits keeps exit watches on the processes in front of each pane where the last look named
// an agent: the group's leader and up to maxWatchedMembers of its other processes, up to
// maxExitWatches in all. When one ends the watcher looks (exitSettle later), and reads that
// pane's foreground group again: an agent that quits ends the leader, or, under a wrapper such
// as "sh -c 'agent; exec sh'", a member, after which the wrapper goes on at once, maybe as a
// program of the same name. Watches of processes no longer in front of an agent are stopped.
func (w *Watcher) watchExits(wake chan<- struct{}) {
	if w.exits == nil {
		w.exits, w.exitsWant = map[int]*exitWatch{}, map[int]bool{}
		w.ended = make(chan int, maxExitWatches)
	}
	ended := func(pid int) {
		select {
		case w.ended <- pid:
		default:
		}
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	want := w.exitsWant
	clear(want)
	for _, m := range w.memo {
		if m.agent == "" || !m.probed || m.front.PID <= 0 {
			continue
		}
		want[m.front.PID] = true
		for _, pid := range m.members {
			want[pid] = true
		}
	}
	for pid, x := range w.exits {
		if !want[pid] {
			x.stop()
			delete(w.exits, pid)
		}
	}
	for pid := range want {
		if _, ok := w.exits[pid]; ok || len(w.exits) >= maxExitWatches {
			continue
		}
		if x := startExitWatch(pid, ended); x != nil {
			w.exits[pid] = x
		}
	}
}

func (w *Watcher) stopExits() {
	for pid, x := range w.exits {
		x.stop()
		delete(w.exits, pid)
	}
}

// takeEnded is the set of watched processes that ended since the last look.
func (w *Watcher) takeEnded() map[int]bool {
	var ended map[int]bool
	for {
		select {
		case pid := <-w.ended:
			if ended == nil {
				ended = map[int]bool{}
			}
			ended[pid] = true
		default:
			return ended
		}
	}
}
