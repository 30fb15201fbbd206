package tmux

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
)

// Features are what a tmux server's release can do where releases differ, known from its
// version (the #{version} format, which a caller reads in a call it makes anyway, once per
// server). Everything else taw uses is the same from 3.2a to 3.7c, or is read so that it is (see
// row.go, KeyBindings and KillSession).
type Features struct {
	Version string // as tmux prints it: "3.2a", "3.5a", "next-3.8"
	// DeadSignal: #{pane_dead_signal} names the signal that ended a pane's process (3.3 and
	// later). On 3.2a a pane killed by a signal has no exit status to read.
	DeadSignal bool
	// LiteralMessage: display-message -l shows its text as it is, with no format or time
	// expansion (3.4 and later).
	LiteralMessage bool
	// ClientMessage: display-message -c names the client a message is shown to (3.3 and later;
	// 3.2a reads -c as a flag without a value and shows the message to the client it picks).
	ClientMessage bool
	// PopupTitle: display-popup -T gives a popup a title (3.3 and later; 3.2a's popup has none).
	PopupTitle bool
	// PasteEscapes: paste-buffer passes a buffer through vis(3), control bytes escaped, unless
	// given -S (3.7 and later; before, it pastes bytes as they are and has no -S).
	PasteEscapes bool
}

// MessageCmd is the display-message that shows text (written with tmuxfmt.Message) to client for
// ms milliseconds: where the release cannot name a client, to the one tmux picks (the most
// recently active).
func (f Features) MessageCmd(client, ms, text string) Cmd {
	if !f.ClientMessage {
		return Cmd{"display-message", "-d", ms, text}
	}
	return Cmd{"display-message", "-c", client, "-d", ms, text}
}

// features are the servers' features this process has read, by socket.
var features sync.Map

// Features are the server's, read from its version once per server in a process (one call the
// first time).
func (c *Client) Features(ctx context.Context) (Features, error) {
	env := c.Env
	if env == nil {
		env = os.Environ()
	}
	socket := SocketPath(c.Global, getenvFrom(env))
	if f, ok := features.Load(socket); ok {
		return f.(Features), nil
	}
	v, err := c.Output(ctx, "display-message", "-p", VersionFormat)
	if err != nil {
		return FeaturesOf(""), err
	}
	f := FeaturesOf(v)
	features.Store(socket, f)
	return f, nil
}

// FeaturesOf reads the features of the release that printed version. A version it cannot read
// (a build from git, say "next-3.8" or "master") is taken as the newest.
func FeaturesOf(version string) Features {
	f := Features{Version: version, DeadSignal: true, LiteralMessage: true, ClientMessage: true, PopupTitle: true, PasteEscapes: true}
	major, minor, ok := parseVersion(version)
	if !ok {
		return f
	}
	at := func(ma, mi int) bool { return major > ma || major == ma && minor >= mi }
	f.DeadSignal = at(3, 3)
	f.ClientMessage = at(3, 3)
	f.PopupTitle = at(3, 3)
	f.PasteEscapes = at(3, 7)
	f.LiteralMessage = at(3, 4)
	return f
}

// VersionFormat is the format that prints the server's version, for FeaturesOf.
const VersionFormat = "#{version}"

func parseVersion(v string) (major, minor int, ok bool) {
	v = strings.TrimPrefix(v, "next-")
	ma, rest, found := strings.Cut(v, ".")
	if !found {
		return 0, 0, false
	}
	end := 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	var err1, err2 error
	major, err1 = strconv.Atoi(ma)
	minor, err2 = strconv.Atoi(rest[:end])
	if err1 != nil || err2 != nil || end == 0 {
		return 0, 0, false
	}
	return major, minor, true
}
