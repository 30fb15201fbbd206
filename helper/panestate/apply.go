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
	unlock, err := Lock(lockDir, paneID)
	if err != nil {
		return report.Outcome{}, err
	}
	defer unlock()
	p, remembered := Remembered(lockDir, paneID)
	if remembered {
		// The usual case: the pane is as the last report left it, and one call does it all.
		rec, out := report.Apply(p.Record(), rep)
		var write *report.Record
		if out.InOrder {
			write = &rec
		}
		now := nowMillis()
		got, held, err := CommitRemembered(ctx, c, p, write, now, map[string]string{OptUpdated: strconv.FormatInt(now, 10)})
		if err != nil {
			return out, err
		}
		if held {
			Remember(lockDir, got)
			return out, nil
		}
		p = got
	} else if p, err = ReadForWrite(ctx, c, paneID); err != nil {
		return report.Outcome{}, err
	}
	rec, out := report.Apply(p.Record(), rep)
	if out.InOrder {
		now := nowMillis()
		if p, err = Commit(ctx, c, p, rec, now, map[string]string{OptUpdated: strconv.FormatInt(now, 10)}); err != nil {
			return out, fmt.Errorf("write pane %s: %w", paneID, err)
		}
	}
	Remember(lockDir, p)
	return out, nil
}
