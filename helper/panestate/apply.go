package panestate

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
)

// ApplyReport is the one way a report reaches a pane, whoever carried it (taw pane report-agent,
// an agent's hook, the herdr socket): under the pane's lock, read its record, apply the
// contract's rules (report.Apply) and write what changed. nowMillis is read once the lock is
// held. With a memo of the pane (Remembered) the read and the write are one tmux call. opts
// change how the lock is waited for and which pane the report is for.
func ApplyReport(ctx context.Context, c *tmux.Client, lockDir, paneID string, rep report.Report, nowMillis func() int64, opts ...ReportOption) (report.Outcome, error) {
	var o reportOptions
	for _, opt := range opts {
		opt(&o)
	}
	return o.apply(ctx, c, lockDir, paneID, rep, nowMillis)
}

// ReportOption is a way of applying a report other than the default.
type ReportOption func(*reportOptions)

type reportOptions struct {
	latest  bool
	order   int
	forPane func(Pane, report.Report) report.Report
	trusted func(Pane) bool
	route   func(context.Context) (string, bool)
	written *Pane
}

// LatestOnly makes a report wait for the pane's lock only while no newer report of the pane
// waits (ErrSuperseded otherwise), and at most as long as ctx: of a burst of events, only the
// latest state is written. rep.Seq orders the reports (it is set to the seq the report was
// written with); order is the pid of the hook script that sent it, 0 when unknown, and orders
// two reports whose seqs were taken a moment apart. A report without a seq waits as usual.
func LatestOnly(order int) ReportOption {
	return func(o *reportOptions) { o.latest, o.order = true, order }
}

// ForPane has the report made for the pane as read under its lock: forPane(p, rep) is what is
// applied to p.
func ForPane(forPane func(p Pane, rep report.Report) report.Report) ReportOption {
	return func(o *reportOptions) { o.forPane = forPane }
}

// Routed writes the report to the pane only when trusted says it belongs there (as read under
// its lock); otherwise, and when the pane is gone, route names the pane it belongs to (ok false:
// none, and nothing is written), and the report is applied there in turn, under that pane's lock
// once this one's is let go.
func Routed(trusted func(Pane) bool, route func(ctx context.Context) (paneID string, ok bool)) ReportOption {
	return func(o *reportOptions) { o.trusted, o.route = trusted, route }
}

// Written keeps in *p the pane as the report left it (its id and first process too), for a reply
// that says whether the report lasts.
func Written(p *Pane) ReportOption {
	return func(o *reportOptions) { o.written = p }
}

// ErrSuperseded says a newer report of the pane was waiting for its lock, so this one was
// dropped: of a burst, only the latest state is written.
var ErrSuperseded = errors.New("a newer report of the pane is waiting")

// ErrNotRouted says a routed report belongs to no pane.
var ErrNotRouted = errors.New("the report belongs to no pane")

func (o reportOptions) apply(ctx context.Context, c *tmux.Client, lockDir, paneID string, rep report.Report, nowMillis func() int64) (report.Outcome, error) {
	memo, unlock, err := o.lock(ctx, lockDir, paneID, &rep)
	if err != nil {
		return report.Outcome{}, err
	}
	out, target, err := o.applyLocked(ctx, c, memo, paneID, rep, nowMillis)
	if o.written != nil && err == nil && target == "" {
		if p, ok := memo.Remembered(paneID); ok {
			*o.written = p
		}
	}
	unlock()
	if target == "" {
		return out, err
	}
	// The pane the report belongs to is written as it is, whatever runs there.
	o.trusted, o.route = nil, nil
	return o.apply(ctx, c, lockDir, target, rep, nowMillis)
}

// lock takes the pane's lock the way o says, setting rep's seq when it waits latest only.
func (o reportOptions) lock(ctx context.Context, lockDir, paneID string, rep *report.Report) (Memo, func(), error) {
	if !o.latest || rep.Seq == nil {
		return lockPane(lockDir, paneID, lockWithMemo(LockWait))
	}
	var seq uint64
	memo, unlock, err := lockPane(lockDir, paneID, func(path string) (Memo, func(), error) {
		m, unlock, s, err := lockLatest(ctx, path, *rep.Seq, o.order)
		seq = s
		return m, unlock, err
	})
	if err == nil {
		rep.Seq = &seq
	}
	return memo, unlock, err
}

// applyLocked applies rep to the pane under its lock; target is the other pane it belongs to.
func (o reportOptions) applyLocked(ctx context.Context, c *tmux.Client, memo Memo, paneID string, rep report.Report, nowMillis func() int64) (out report.Outcome, target string, err error) {
	forPane := func(p Pane) report.Report {
		if o.forPane == nil {
			return rep
		}
		return o.forPane(p, rep)
	}
	trusted := func(p Pane) bool { return o.trusted == nil || o.trusted(p) }
	p, remembered := memo.Remembered(paneID)
	if remembered && trusted(p) {
		// The usual case, in one tmux call while the pane is as the last report left it.
		var fresh Pane
		var held bool
		out, fresh, held, err = ApplyRemembered(ctx, c, memo, p, forPane(p), nowMillis)
		if held || (err != nil && !tmux.IsPaneNotFound(err)) {
			return out, "", err
		}
		p = fresh
	} else {
		p, err = ReadForWrite(ctx, c, paneID)
	}
	switch {
	case err == nil && trusted(p):
		out, err = ApplyRead(ctx, c, memo, p, forPane(p), nowMillis)
		return out, "", err
	case err != nil && (o.route == nil || !tmux.IsPaneNotFound(err)):
		return report.Outcome{}, "", err
	}
	target, ok := o.route(ctx)
	switch {
	case !ok:
		return report.Outcome{}, "", ErrNotRouted
	case target != paneID:
		return report.Outcome{}, target, nil
	case err != nil:
		return report.Outcome{}, "", err
	}
	out, err = ApplyRead(ctx, c, memo, p, forPane(p), nowMillis)
	return out, "", err
}

// ApplyRemembered applies rep to p, the pane as its memo has it, in one tmux call, under the
// pane's lock. held false: the pane had moved on, nothing was written, and fresh is the pane as
// it is now, for ApplyRead.
func ApplyRemembered(ctx context.Context, c *tmux.Client, memo Memo, p Pane, rep report.Report, nowMillis func() int64) (out report.Outcome, fresh Pane, held bool, err error) {
	rec, out := report.Apply(p.Record(), rep)
	var write *report.Record
	if out.InOrder {
		write = &rec
	}
	now := nowMillis()
	got, held, err := CommitRemembered(ctx, c, p, write, now, reportExtra(p, rec, now))
	if err == nil && held {
		memo.Remember(got)
	}
	return out, got, held, err
}

// ApplyRead applies rep to p, the pane as just read under its lock, writes what changed and
// keeps the memo of the pane as written.
func ApplyRead(ctx context.Context, c *tmux.Client, memo Memo, p Pane, rep report.Report, nowMillis func() int64) (report.Outcome, error) {
	rec, out := report.Apply(p.Record(), rep)
	if out.InOrder {
		now := nowMillis()
		var err error
		if p, err = Commit(ctx, c, p, rec, now, reportExtra(p, rec, now)); err != nil {
			return out, fmt.Errorf("write pane %s: %w", p.ID, err)
		}
	}
	memo.Remember(p)
	return out, nil
}

// reportExtra is what a report writes besides the record: when it was taken, and the mark of
// the turn it ends, in the same guarded call, so a turn that starts and ends between two of
// the watcher's looks still ends done.
func reportExtra(p Pane, rec report.Record, now int64) map[string]string {
	extra := map[string]string{OptUpdated: strconv.FormatInt(now, 10)}
	if mark, ok := TurnEndMark(p.Options, rec, now); ok {
		extra[OptTurnEnded] = mark
	}
	if mark, ok := QuitMark(p.Record(), rec, now); ok {
		extra[OptQuit] = mark
	}
	return extra
}
