package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/events"
	"github.com/taw-tmux/taw/helper/notify"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/plugins"
	"github.com/taw-tmux/taw/helper/spawn"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/watch"
)

// What notifications and [hooks] cost the watcher: its two observers on a quiet look of 200
// agent panes (the common case: nothing moved) beside the look's own list-panes call; and a hook
// started detached, from the observer's call to the command having run, beside running the same
// command directly.
func init() {
	registerOnServer("notify", func(e *Env, s string) ([]Result, error) {
		c := &tmux.Client{Global: []string{"-L", s}, Env: e.Environ()}
		panes := make([]panestate.Pane, 200)
		for i := range panes {
			panes[i] = panestate.Pane{ID: "%" + strconv.Itoa(i), SessionName: "bench", Options: map[string]string{
				panestate.OptName: "claude", panestate.OptState: "working"}}
		}
		home := filepath.Join(e.TmpDir, "notify-home")
		if err := os.MkdirAll(home, 0o755); err != nil {
			return nil, err
		}
		cfg := &config.Live{Getenv: func(k string) string {
			return map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"), "XDG_DATA_HOME": filepath.Join(home, ".data")}[k]
		}}
		n, ev := &notify.Observer{Config: cfg}, &events.Observer{Config: cfg, Plugins: &plugins.Live{Getenv: cfg.Getenv}}
		look := &watch.Look{Client: c, Panes: panes, Now: time.Now()}
		ctx := context.Background()
		const runs = 200
		quiet, err := Median(runs, func() error {
			n.Observe(ctx, look)
			ev.Observe(ctx, look)
			return nil
		})
		if err != nil {
			return nil, err
		}
		list, err := Median(50, func() error {
			_, err := c.Run(ctx, panestate.ListCmd(""))
			return err
		})
		if err != nil {
			return nil, err
		}

		marker := filepath.Join(e.TmpDir, "hook-ran")
		script := "echo x > " + marker
		wait := func() error {
			if !waitFor(5*time.Second, 200*time.Microsecond, func() bool { _, err := os.Stat(marker); return err == nil }) {
				return fmt.Errorf("the hook did not run within 5s")
			}
			return os.Remove(marker)
		}
		direct, err := Median(30, func() error {
			if err := exec.Command("sh", "-c", script).Run(); err != nil {
				return err
			}
			return wait()
		})
		if err != nil {
			return nil, err
		}
		detached, err := Median(30, func() error {
			job := spawn.Job{Label: "bench", Argv: []string{"sh", "-c", script}, Env: e.Environ(), Timeout: 10 * time.Second}
			if err := spawn.Start(e.Taw, job); err != nil {
				return err
			}
			return wait()
		})
		if err != nil {
			return nil, err
		}
		return []Result{
			{What: "notify + events observers, quiet look of 200 agent panes", Value: Ms(quiet), Unit: "ms",
				Baseline: "the look's list-panes call", BaseVal: Ms(list), Goal: "never slows the watcher"},
			{What: "a [hooks] command started detached, until it has run", Value: Ms(detached), Unit: "ms",
				Baseline: "sh -c run directly", BaseVal: Ms(direct), Goal: "never blocks taw (the watcher waits for none of it)"},
		}, nil
	})
}
