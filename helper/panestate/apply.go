package panestate

import (
	"context"
	"fmt"
	"strconv"

	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/tmux"
)

// ApplyReport is the one way a report reaches a pane, whoever carried it (taw pane report-agent
// or the herdr socket): under the pane's lock, read its record, apply the contract's rules
// (report.Apply) and write what changed. nowMillis is read once the lock is held. With a memo of
// the pane (Remembered) the read and the write are one tmux call.
func ApplyReport(ctx context.Context, c *tmux.Client, lockDir, paneID string, rep report.Report, nowMillis func() int64) (report.Outcome, error) {
	memo, unlock, err := lockPane(lockDir, paneID, lockWithMemo(LockWait))
	if err != nil {
		return report.Outcome{}, err
	}
	defer unlock()
	p, remembered := memo.Remembered(paneID)
	if remembered {
		out, fresh, held, err := ApplyRemembered(ctx, c, memo, p, rep, nowMillis)
		if err != nil || held {
			return out, err
		}
		p = fresh
	} else if p, err = ReadForWrite(ctx, c, paneID); err != nil {
		return report.Outcome{}, err
	}
	return ApplyRead(ctx, c, memo, p, rep, nowMillis)
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
	return extra
}
