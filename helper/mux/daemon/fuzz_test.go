package daemon

import (
	"net"
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/mux/wire"
)

// FuzzConnection sends a handshake and then arbitrary bytes to a real daemon: whatever they are,
// the daemon must answer or drop only that connection, and go on serving a well-behaved client.
func FuzzConnection(f *testing.F) {
	f.Add([]byte(`{"Request":{"correlation_id":1,"op":"ListPanes"}}`), true)
	f.Add([]byte(`{"Request":{"correlation_id":1,"op":{"Send":{"pane_id":"p1","data":"eA==","source":"x"}}}}`), true)
	f.Add([]byte(`{"Hello":{"protocol_version":1,"client_kind":"x"}}`), true)
	f.Add([]byte(`{"Request":{"correlation_id":1,"op":{"Attach":{"pane_id":"p"}}}}`), true)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff}, false)
	f.Add([]byte{0x02, 0x00, 0x00, 0x00, '{', '}'}, false)
	f.Add([]byte{}, false)
	td := startDaemon(f)
	good := td.dialTB(f)
	f.Fuzz(func(t *testing.T, data []byte, framed bool) {
		if framed {
			if fr, err := wire.DecodeFrame(data); err == nil {
				if req, ok := fr.(*wire.Request); ok {
					switch req.Op.(type) {
					case *wire.OpKillServer, *wire.OpSpawn, *wire.OpRespawn:
						return // valid requests that would end the daemon or start programs
					}
				}
			}
		}
		nc, err := net.Dial("unix", td.socket)
		if err != nil {
			t.Fatalf("the daemon stopped accepting: %v", err)
		}
		defer nc.Close()
		hello, _ := wire.AppendFrame(nil, []byte(helloJSON))
		payload := data
		if framed {
			payload, _ = wire.AppendFrame(nil, data)
		}
		nc.Write(append(hello, payload...))
		nc.(*net.UnixConn).CloseWrite()
		nc.SetReadDeadline(time.Now().Add(10 * time.Second))
		for {
			if _, err := wire.ReadFrame(nc); err != nil {
				if ne, ok := err.(net.Error); ok && ne.Timeout() {
					t.Fatal("the daemon neither answered nor closed the connection")
				}
				break
			}
		}
		good.SetDeadline(time.Now().Add(10 * time.Second))
		if r, err := good.Call(&wire.OpListThemes{}); err != nil || r.Error != nil {
			t.Fatalf("the daemon stopped serving others: %v %v", err, r)
		}
	})
}
