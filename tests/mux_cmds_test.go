package tests

import (
	"bytes"
	"fmt"
	"net"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/taw-tmux/taw/helper/cli"
	"github.com/taw-tmux/taw/helper/mux/client"
	"github.com/taw-tmux/taw/helper/mux/wire"
)

// Script commands for taw mux: a strict little Conmux client, so scripts can check what the
// daemon puts on the wire.
func init() {
	// muxready <socket> [seconds]: wait until a daemon answers the handshake on the socket.
	define("muxready <socket> [seconds]", 1, 2, func(ts *testscript.TestScript, args []string) {
		poll(ts, "muxready: no daemon on "+args[0], func() (bool, string) {
			c, err := client.Dial(args[0], "script", time.Second)
			if err != nil {
				return false, err.Error()
			}
			c.Close()
			return true, ""
		}, seconds(ts, args[1:], 30))
	})
	// muxraw <socket> <frame-json>...: send the frames as they are on a fresh connection (no
	// handshake of its own), then print every frame the daemon sends, one per line, until it
	// closes the connection (which it must do within 10s).
	define("muxraw <socket> <frame-json>...", 2, many, func(ts *testscript.TestScript, args []string) {
		nc, err := net.Dial("unix", args[0])
		ts.Check(err)
		defer nc.Close()
		var all []byte
		for _, f := range args[1:] {
			all, err = wire.AppendFrame(all, []byte(f))
			ts.Check(err)
		}
		// A daemon may close the connection before it has read everything (after a bad frame or
		// KillServer), so a failed write is not an error here: what it sends back is the test.
		_, _ = nc.Write(all)
		nc.SetReadDeadline(time.Now().Add(10 * time.Second))
		for {
			body, err := wire.ReadFrame(nc)
			if err != nil {
				if ne, ok := err.(net.Error); ok && ne.Timeout() {
					ts.Fatalf("muxraw: the daemon kept the connection open")
				}
				return
			}
			fmt.Fprintf(ts.Stdout(), "%s\n", body)
		}
	})
	// muxwatch <socket> <pane> <regexp> [seconds]: attach to the pane, rebuild its output from
	// the snapshot and the live stream (failing on any seq gap), and wait until it matches with
	// \r\n read as \n; prints the rebuilt output so.
	define("muxwatch <socket> <pane> <regexp> [seconds]", 3, 4, func(ts *testscript.TestScript, args []string) {
		re := pattern(ts, args[2])
		c, err := client.Dial(args[0], "script", 5*time.Second)
		ts.Check(err)
		defer c.Close()
		limit := seconds(ts, args[3:], 30)
		deadline := time.Now().Add(limit)
		var att *client.Attached
		// A busy answer is the attach limit, which passes by itself: asked again.
		poll(ts, "muxwatch: Attach "+args[1]+" stays busy", func() (bool, string) {
			a, werr, err := c.Attach(args[1])
			ts.Check(err)
			if werr != nil && werr.Kind != wire.ErrBusy {
				ts.Fatalf("muxwatch: Attach %s: %v", args[1], werr)
			}
			att = a
			return werr == nil, fmt.Sprint(werr)
		}, limit)
		data := append([]byte(nil), att.Snapshot.History...)
		last := att.Snapshot.LastSeq
		take := func(o *wire.PaneOutput) {
			if o.Seq != last+1 {
				ts.Fatalf("muxwatch: pane %s output seq %d follows %d", args[1], o.Seq, last)
			}
			last = o.Seq
			data = append(data, o.Data...)
		}
		for _, o := range att.Backlog {
			take(o)
		}
		plain := func() []byte { return bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")) }
		for !re.Match(plain()) {
			c.SetDeadline(deadline)
			ev, _, err := c.Next()
			if err != nil {
				ts.Fatalf("muxwatch: output of %s does not match %q: %v\n%q", args[1], args[2], err, data)
			}
			if o, ok := ev.(*wire.PaneOutput); ok && o.PaneID == args[1] && o.Seq > att.Snapshot.LastSeq {
				take(o)
			}
		}
		ts.Stdout().Write(plain())
	})
	// muxtmux <socket>: print the -L name of the tmux server a daemon on that socket owns.
	define("muxtmux <socket>", 1, 1, func(ts *testscript.TestScript, args []string) {
		fmt.Fprintln(ts.Stdout(), cli.MuxTmuxName(args[0]))
	})
	// muxtmuxgone <socket> [seconds]: wait until the daemon's own tmux server is gone.
	define("muxtmuxgone <socket> [seconds]", 1, 2, func(ts *testscript.TestScript, args []string) {
		name := cli.MuxTmuxName(args[0])
		poll(ts, "muxtmuxgone: tmux server "+name+" still runs", func() (bool, string) {
			_, err := tmuxOn(ts, name, "has-session")
			return err != nil, "has-session succeeds"
		}, seconds(ts, args[1:], 30))
	})
}
