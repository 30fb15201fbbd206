package herdrsock

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"time"

	"github.com/taw-tmux/taw/helper/config"
	"github.com/taw-tmux/taw/helper/notify"
)

// notificationShow sends a program's notice on the channels [notify] enables, as a
// notification of taw's own would go. The bell and the sound command are used only when a
// sound is asked for (herdr's done or request).
func (h *Handler) notificationShow(ctx context.Context, _ Peer, params json.RawMessage) (any, *Error) {
	var p struct {
		Title string  `json:"title"`
		Body  *string `json:"body"`
		Sound string  `json:"sound"`
	}
	if e := decode("notification.show", params, &p); e != nil {
		return nil, e
	}
	n := notify.NewNotice(p.Title, trimmed(p.Body), time.Now())
	if n.Heading == "" {
		return nil, errorf(CodeInvalidRequest, "invalid request: notification.show needs a title")
	}
	switch p.Sound {
	case "", "none", "done", "request":
	default:
		return nil, errorf(CodeInvalidRequest, "invalid request: sound %q (expected none, done or request)", p.Sound)
	}
	type shown struct {
		Type   string `json:"type"`
		Shown  bool   `json:"shown"`
		Reason string `json:"reason"`
	}
	cfg, _ := config.Load(os.Getenv)
	if !notify.Enabled(ctx, h.Tmux, cfg.Notify) {
		return shown{"notification_show", false, "disabled"}, nil
	}
	ch := cfg.Notify
	if p.Sound == "" || p.Sound == "none" {
		ch.Bell, ch.Sound = false, false
	}
	s := &notify.Sender{Client: h.Tmux, LookPath: exec.LookPath, Environ: os.Environ}
	sent := false
	for _, d := range s.Send(ctx, n, ch) {
		if d.Err == nil && d.Channel != "clients" {
			sent = true
		}
	}
	if !sent {
		return shown{"notification_show", false, "no_foreground_client"}, nil
	}
	return shown{"notification_show", true, "shown"}, nil
}
