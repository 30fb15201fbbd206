package config

import (
	"context"
	"os"
	"sync"
	"time"

	"github.com/taw-tmux/taw/helper/tmux"
)

// Live is the configuration of a long-running process (the pane watcher): the file is read again
// when it changes, and its problems are shown on the status line once (see Warn).
type Live struct {
	Getenv func(string) string

	mu       sync.Mutex
	loaded   bool
	sig      fileSig
	cfg      Config
	problems []error
	warned   string    // hash of the problems this process knows were shown
	tried    string    // hash of the problems last tried
	triedAt  time.Time // when
}

type fileSig struct {
	exists bool
	size   int64
	mtime  time.Time
}

// warnRetry is how often showing the problems is tried again while no client is attached.
const warnRetry = 10 * time.Second

// Get returns the configuration, reading the file again when its size or time changed. With a
// client, problems not yet shown are shown on every attached client's status line.
func (v *Live) Get(ctx context.Context, c *tmux.Client) Config {
	v.mu.Lock()
	defer v.mu.Unlock()
	getenv := v.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	var sig fileSig
	if st, err := os.Stat(Path(getenv)); err == nil {
		sig = fileSig{true, st.Size(), st.ModTime()}
	}
	if !v.loaded || sig != v.sig {
		v.cfg, v.problems = Load(getenv)
		v.sig, v.loaded = sig, true
	}
	if c != nil && len(v.problems) > 0 {
		hash := ProblemsHash(v.problems)
		if hash != v.warned && (hash != v.tried || time.Since(v.triedAt) >= warnRetry) {
			v.tried, v.triedAt = hash, time.Now()
			shown, err := Warn(ctx, c, v.problems, getenv("HOME"))
			if err == nil && (shown || alreadyShown(ctx, c, hash)) {
				v.warned = hash
			}
		}
	}
	return v.cfg
}

func alreadyShown(ctx context.Context, c *tmux.Client, hash string) bool {
	out, err := c.Output(ctx, "display-message", "-p", "#{"+OptWarned+"}")
	return err == nil && out == hash
}
