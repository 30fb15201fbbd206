package tests

import (
	"bytes"
	"fmt"
	"net"
	"os/exec"
	"regexp"
	"strconv"
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
	commands["muxready"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) < 1 || len(args) > 2 {
			ts.Fatalf("usage: muxready <socket> [seconds]")
		}
		poll(ts, "muxready: no daemon on "+args[0], func() (bool, string) {
			c, err := client.Dial(args[0], "script", time.Second)
			if err != nil {
				return false, err.Error()
			}
			c.Close()
			return true, ""
		}, muxSeconds(ts, args, 1, 30))
	}
	// muxraw <socket> <frame-json>...: send the frames as they are on a fresh connection (no
	// handshake of its own), then print every frame the daemon sends, one per line, until it
	// closes the connection (which it must do within 10s).
	commands["muxraw"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) < 2 {
			ts.Fatalf("usage: muxraw <socket> <frame-json>...")
		}
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
	}
	// muxwatch <socket> <pane> <regexp> [seconds]: attach to the pane, rebuild its output from
	// the snapshot and the live stream (failing on any seq gap), and wait until it matches with
	// \r\n read as \n; prints the rebuilt output so.
	commands["muxwatch"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) < 3 || len(args) > 4 {
			ts.Fatalf("usage: muxwatch <socket> <pane> <regexp> [seconds]")
		}
		re, err := regexp.Compile(args[2])
		ts.Check(err)
		c, err := client.Dial(args[0], "script", 5*time.Second)
		ts.Check(err)
		defer c.Close()
		deadline := time.Now().Add(muxSeconds(ts, args, 3, 30))
		var att *client.Attached
		for {
			a, werr, err := c.Attach(args[1])
			ts.Check(err)
			if werr == nil {
				att = a
				break
			}
			if werr.Kind != wire.ErrBusy || time.Now().After(deadline) {
				ts.Fatalf("muxwatch: Attach %s: %v", args[1], werr)
			}
			time.Sleep(20 * time.Millisecond) // the attach limit passes by itself
		}
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
	}
	// muxtmux <socket>: print the -L name of the tmux server a daemon on that socket owns.
	commands["muxtmux"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: muxtmux <socket>")
		}
		fmt.Fprintln(ts.Stdout(), cli.MuxTmuxName(args[0]))
	}
	// muxtmuxgone <socket> [seconds]: wait until the daemon's own tmux server is gone.
	commands["muxtmuxgone"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) < 1 || len(args) > 2 {
			ts.Fatalf("usage: muxtmuxgone <socket> [seconds]")
		}
		name := cli.MuxTmuxName(args[0])
		poll(ts, "muxtmuxgone: tmux server "+name+" still runs", func() (bool, string) {
			cmd := exec.Command("tmux", "-L", name, "has-session")
			cmd.Env = environ(ts)
			return cmd.Run() != nil, "has-session succeeds"
		}, muxSeconds(ts, args, 1, 30))
	}
}

func muxSeconds(ts *testscript.TestScript, args []string, i int, def float64) time.Duration {
	if len(args) <= i {
		return time.Duration(def * float64(time.Second))
	}
	n, err := strconv.ParseFloat(args[i], 64)
	if err != nil || n <= 0 {
		ts.Fatalf("bad seconds %q: give a number above 0", args[i])
	}
	return time.Duration(n * float64(time.Second))
}
