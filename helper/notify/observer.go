package notify

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/spawn"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxconf"
	"github.com/taw-tmux/taw/helper/watch"
)

// Observer plans notifications from every look and sends them in the background.
type Observer struct {
	Config  *config.Live
	planner Planner
}

func (o *Observer) Name() string { return "notify" }

func (o *Observer) Observe(ctx context.Context, l *watch.Look) {
	cfg := o.Config.Get(ctx, l.Client).Notify
	planCfg := cfg
	planCfg.Enabled = true // the tmux switch is read only when something is due
	send, _ := o.planner.Plan(l, planCfg)
	if len(send) == 0 {
		return
	}
	if !Enabled(ctx, l.Client, cfg) {
		return
	}
	s := &Sender{Client: l.Client}
	logPath := spawn.LogPath(os.Getenv)
	go func() {
		for _, n := range send {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			n = withPrompt(ctx, l.Client, n)
			for _, d := range s.Send(ctx, n, cfg) {
				if d.Err != nil {
					spawn.Logf(logPath, "notify %s %s: %s: %v", n.PaneID, d.Channel, d.Target, d.Err)
				}
			}
			cancel()
		}
	}()
}

// Enabled is whether notifications are on: the tmux option when it is set, else the file.
func Enabled(ctx context.Context, c *tmux.Client, cfg config.Notify) bool {
	v, err := c.Output(ctx, "display-message", "-p", "#{"+tmuxconf.SettingNotify+"}")
	if err != nil {
		return cfg.Enabled
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "on", "yes", "true", "1":
		return true
	case "off", "no", "false", "0":
		return false
	}
	return cfg.Enabled
}
