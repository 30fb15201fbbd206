// Command standin serves the stand-in model API on 127.0.0.1, for driving an agent by hand:
// standin [-addr 127.0.0.1:0] [-log FILE]. It prints the address it listens on.
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"

	"github.com/taw-tmux/taw/tests/agents/standin"
)

// The flags.
var (
	addr    = flag.String("addr", "127.0.0.1:0", "address to listen on (loopback only)")
	logPath = flag.String("log", "", "file to append one line per request to")
	dump    = flag.String("dump", "", "folder to write each request's body to")
)

func main() {
	flag.Parse()
	host, _, err := net.SplitHostPort(*addr)
	if err != nil || (host != "127.0.0.1" && host != "localhost" && host != "::1") {
		fmt.Fprintln(os.Stderr, "standin: -addr must be a loopback address such as 127.0.0.1:0")
		os.Exit(2)
	}
	var logw io.Writer
	if *logPath != "" {
		f, err := os.OpenFile(*logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			fmt.Fprintf(os.Stderr, "standin: cannot open the log: %v\n", err)
			os.Exit(1)
		}
		defer f.Close()
		logw = f
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "standin: cannot listen on %s: %v\n", *addr, err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr().String())
	if err := http.Serve(ln, &standin.Server{Log: logw, Dump: *dump}); err != nil {
		fmt.Fprintf(os.Stderr, "standin: %v\n", err)
		os.Exit(1)
	}
}
