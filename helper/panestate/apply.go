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
// (report.Apply) and write what changed. nowMillis is read once the lock is held.
func ApplyReport(ctx context.Context, c *tmux.Client, lockDir, paneID string, rep report.Report, nowMillis func() int64) (report.Outcome, error) {
	unlock, err := Lock(lockDir, paneID)
	if err != nil {
		return report.Outcome{}, err
	}
	defer unlock()
	p, err := Read(ctx, c, paneID)
	if err != nil {
		return report.Outcome{}, err
	}
	rec, out := report.Apply(p.Record(), rep)
	if out.InOrder {
		now := nowMillis()
		if _, err := Commit(ctx, c, p, rec, now, map[string]string{OptUpdated: strconv.FormatInt(now, 10)}); err != nil {
			return out, fmt.Errorf("write pane %s: %w", paneID, err)
		}
	}
	return out, nil
}
