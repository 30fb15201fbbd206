package cli

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/coded"
	"github.com/taw-tmux/taw/helper/mux/wire"
)

// runMux runs one taw mux command line and returns the options it parsed in place of running it.
func runMux(t *testing.T, args string) (serve *muxServeOptions, call *muxCallOptions, attach *muxAttachOptions, err error) {
	t.Helper()
	err = parseArgs(t, map[string]string{"XDG_RUNTIME_DIR": "/run/user/7"}, "taw "+args, parsedInto(&serve, &call, &attach))
	return
}

func TestNewMuxCommands(t *testing.T) {
	serve, _, _, err := runMux(t, "mux serve")
	if err != nil || !reflect.DeepEqual(serve, &muxServeOptions{Socket: "/run/user/7/taw/mux.sock", Private: true}) {
		t.Errorf("mux serve: %+v, %v", serve, err)
	}
	serve, _, _, err = runMux(t, "mux serve --socket /tmp/x.sock --log /tmp/l")
	if err != nil || !reflect.DeepEqual(serve, &muxServeOptions{Socket: "/tmp/x.sock", Log: "/tmp/l"}) {
		t.Errorf("mux serve --socket: %+v, %v", serve, err)
	}
	_, call, _, err := runMux(t, `mux call "ListPanes" --timeout 2.5`)
	if err != nil || call.Socket != "/run/user/7/taw/mux.sock" || call.Timeout != 2500*time.Millisecond || !reflect.DeepEqual(call.Op, &wire.OpListPanes{}) {
		t.Errorf("mux call: %+v, %v", call, err)
	}
	_, _, attach, err := runMux(t, "mux attach --no-input p1 --socket /s")
	if err != nil || !reflect.DeepEqual(attach, &muxAttachOptions{Socket: "/s", Pane: "p1", NoInput: true}) {
		t.Errorf("mux attach: %+v, %v", attach, err)
	}
	for args, code := range map[string]string{
		"mux serve extra":                   coded.Usage,
		"mux call":                          coded.Usage,
		`mux call "ListPanes" "ListThemes"`: coded.Usage,
		`mux call {"Nope":null}`:            coded.MuxBadOp,
		`mux call "ListPanes" --timeout -1`: coded.InvalidArgument,
		"mux attach":                        coded.Usage,
		"mux attach a b":                    coded.Usage,
		"mux frob":                          coded.Usage,
	} {
		_, _, _, err := runMux(t, args)
		if e := AsError(err); err == nil || e.Code != code {
			t.Errorf("%s: err %v, want code %s", args, err, code)
		}
	}
}

func TestMuxTmuxNameIsStablePerSocket(t *testing.T) {
	a, b := MuxTmuxName("/run/a.sock"), MuxTmuxName("/run/b.sock")
	if a == b || a != MuxTmuxName("/run/a.sock") || !strings.HasPrefix(a, "taw-mux-") || len(a) != len("taw-mux-")+12 {
		t.Errorf("names %q and %q", a, b)
	}
}
