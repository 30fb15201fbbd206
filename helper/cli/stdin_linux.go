package cli

import (
	"io"

	"golang.org/x/sys/unix"
)

// widenPipe lets a pipe on r hold maxPayloadPipe bytes, so the agent's write of a large payload
// ends at once rather than in turns with taw's reads. Anything else is left as it is.
func widenPipe(r io.Reader) {
	if f, ok := r.(interface{ Fd() uintptr }); ok {
		_, _ = unix.FcntlInt(f.Fd(), unix.F_SETPIPE_SZ, maxPayloadPipe)
	}
}
