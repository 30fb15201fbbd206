package events

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/plugins"
	"github.com/taw-tmux/taw/helper/spawn"
	"github.com/taw-tmux/taw/helper/watch"
)

// Observer runs the [hooks] commands and plugins' [[events]] commands of every event of a look.
type Observer struct {
	Config  *config.Live
	Plugins *plugins.Live
	// Start runs a job detached; nil starts it through this binary's supervisor.
	Start func(spawn.Job) error

	once  sync.Once
	queue chan []spawn.Job
}

// queueLooks is how many looks' jobs may wait to be started before the watcher drops some.
const queueLooks = 64

func (o *Observer) Name() string { return "events" }

func (o *Observer) Observe(ctx context.Context, l *watch.Look) {
	if len(l.Transitions) == 0 {
		return
	}
	cfg := o.Config.Get(ctx, l.Client)
	var plugs []plugins.Plugin
	if cfg.Plugins.Enabled {
		plugs = o.Plugins.Get()
	}
	if len(cfg.Hooks.Commands) == 0 && len(plugs) == 0 {
		return
	}
	bin, _ := os.Executable()
	start := o.Start
	if start == nil {
		start = func(j spawn.Job) error { return spawn.Start(bin, j) }
	}
	jobs := Jobs(l.Transitions, cfg, plugs, bin, os.Getenv, os.Environ())
	if len(jobs) == 0 {
		return
	}
	// Starting a process costs a fork each: one goroutine starts them, in order, and the look
	// does not wait for it.
	o.once.Do(func() {
		o.queue = make(chan []spawn.Job, queueLooks)
		go func() {
			for batch := range o.queue {
				for _, j := range batch {
					if err := start(j); err != nil {
						spawn.Logf(j.Log, "%s: cannot start: %v", j.Label, err)
					}
				}
			}
		}()
	})
	select {
	case o.queue <- jobs:
	default:
		spawn.Logf(jobs[0].Log, "events: %d commands dropped: too many events at once", len(jobs))
	}
}

// Jobs are the commands to run for the transitions' events: the [hooks] commands first, then
// each plugin's, in file order.
func Jobs(ts []watch.Transition, cfg config.Config, plugs []plugins.Plugin, bin string, getenv func(string) string, base []string) []spawn.Job {
	logPath := spawn.LogPath(getenv)
	var jobs []spawn.Job
	for _, t := range ts {
		for _, e := range FromTransition(t) {
			for i, h := range cfg.Hooks.Commands {
				if !Matches(h.On, e.Name) {
					continue
				}
				jobs = append(jobs, spawn.Job{
					Label:   fmt.Sprintf("hook %d (%s) %s for %s", i+1, h.On, e.Name, e.PaneID),
					Argv:    h.Command,
					Env:     spawn.Env(base, e.Invocation(), e.Vars()),
					Timeout: cfg.Hooks.Timeout.Duration,
					Log:     logPath,
				})
			}
			for _, p := range plugs {
				for i, ev := range p.Manifest.Events {
					if !Matches(ev.On, e.Name) {
						continue
					}
					extra := e.Vars()
					extra["TAW_PLUGIN_EVENT"] = e.Name
					extra["HERDR_PLUGIN_EVENT"] = e.Name
					extra["HERDR_PLUGIN_EVENT_JSON"] = e.JSON()
					jobs = append(jobs, spawn.Job{
						Label:   fmt.Sprintf("plugin %s event %d (%s) %s for %s", p.ID, i+1, ev.On, e.Name, e.PaneID),
						Argv:    plugins.Resolve(p.Path, ev.Command),
						Env:     plugins.Env(getenv, base, p, bin, e.Invocation(), extra),
						Dir:     p.Path,
						Timeout: plugins.Timeout(ev.Timeout, cfg.Hooks.Timeout.Duration),
						Log:     logPath,
					})
				}
			}
		}
	}
	return jobs
}
