package tmux

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"
)

// taw speaks tmux's client protocol itself instead of starting a tmux client for every call: a
// tmux client is a dynamically linked program whose start costs more than the command it sends,
// and taw's hooks and reports run on every agent event. The protocol is the one tmux 3.2 and
// later speak (version 8); a server that speaks another answers MSG_VERSION before running
// anything, and taw then runs the tmux binary instead.

const protocolVersion = 8

// Message types of tmux's client protocol (tmux-protocol.h).
const (
	msgVersion           = 12
	msgIdentifyFlags     = 100
	msgIdentifyTerm      = 101
	msgIdentifyTTYName   = 102
	msgIdentifyEnviron   = 105
	msgIdentifyDone      = 106
	msgIdentifyClientPID = 107
	msgIdentifyCwd       = 108
	msgIdentifyFeatures  = 109
	msgIdentifyLongFlags = 111
	msgCommand           = 200
	msgExit              = 203
	msgExited            = 204
	msgShutdown          = 210
	msgReadOpen          = 300
	msgReadDone          = 302
	msgWriteOpen         = 303
	msgWrite             = 304
	msgWriteReady        = 305
	msgWriteClose        = 306
)

const (
	imsgHeaderSize = 16
	imsgMaxSize    = 16384
	// clientFlags are those a command-line tmux client in a UTF-8 locale sends: UTF-8 output, and
	// never start a server.
	clientFlags = 0x08010000
)

// errProtocol means the server does not speak this protocol; the caller falls back to the binary.
var errProtocol = errors.New("tmux server speaks another client protocol")

type imsg struct {
	typ  uint32
	data []byte
}

func putHeader(b []byte, typ uint32, n int, flags uint16) {
	binary.LittleEndian.PutUint32(b[0:], typ)
	binary.LittleEndian.PutUint16(b[4:], uint16(imsgHeaderSize+n))
	binary.LittleEndian.PutUint16(b[6:], flags)
	binary.LittleEndian.PutUint32(b[8:], protocolVersion)
	binary.LittleEndian.PutUint32(b[12:], 0xffffffff)
}

func appendMsg(buf []byte, typ uint32, data []byte) []byte {
	var h [imsgHeaderSize]byte
	putHeader(h[:], typ, len(data), 0)
	return append(append(buf, h[:]...), data...)
}

func int32Bytes(v int32) []byte {
	b := make([]byte, 4)
	binary.LittleEndian.PutUint32(b, uint32(v))
	return b
}

func cstring(s string) []byte { return append([]byte(s), 0) }

// nativeRun sends one command (already joined with ";" arguments) over the server's socket and
// collects what it writes to stdout and stderr and its exit status.
func nativeRun(ctx context.Context, socket string, args []string, env []string, timeout time.Duration) (stdout, stderr string, status int, err error) {
	if err := ctx.Err(); err != nil {
		return "", "", 1, err
	}
	limit, _ := ctx.Deadline()
	uc, err := dialServer(socket, timeout, limit)
	if err != nil {
		if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED) {
			return "", "", 1, &Error{Code: CodeServerNotRunning, Stderr: fmt.Sprintf("no tmux server is running on %s: run taw inside tmux, or name a server with -L or -S", socket)}
		}
		if errors.Is(err, errTimedOut) {
			return "", "", 1, &Error{Code: CodeTmuxError, Stderr: "tmux did not take the connection: " + connectTimedOut(timeout)}
		}
		return "", "", 1, err // not tmux's socket, or not ours to use: the binary explains
	}
	defer uc.Close()

	// Identify: tmux's own client's messages, in its order, but for the two that hand the server
	// the client's stdin and stdout. The server keeps those only for a terminal or a control
	// client, which this is not; a command's output comes back as messages either way, and one
	// that reads stdin gets an empty one (msgReadOpen below). Without descriptors everything goes
	// in one write, which the server reads at once.
	var msgs []byte
	msgs = appendMsg(msgs, msgIdentifyFlags, int32Bytes(clientFlags))
	lf := make([]byte, 8)
	binary.LittleEndian.PutUint64(lf, clientFlags)
	msgs = appendMsg(msgs, msgIdentifyLongFlags, lf)
	msgs = appendMsg(msgs, msgIdentifyTerm, cstring(envValue(env, "TERM", "screen")))
	msgs = appendMsg(msgs, msgIdentifyFeatures, int32Bytes(0))
	msgs = appendMsg(msgs, msgIdentifyTTYName, cstring(""))
	cwd, _ := os.Getwd()
	msgs = appendMsg(msgs, msgIdentifyCwd, cstring(cwd))
	msgs = appendMsg(msgs, msgIdentifyClientPID, int32Bytes(int32(os.Getpid())))
	for _, kv := range env {
		if imsgHeaderSize+len(kv)+1 > imsgMaxSize {
			continue // tmux's own client drops what does not fit in one message too
		}
		msgs = appendMsg(msgs, msgIdentifyEnviron, cstring(kv))
	}
	msgs = appendMsg(msgs, msgIdentifyDone, nil)
	cmd := int32Bytes(int32(len(args)))
	for _, a := range args {
		cmd = append(cmd, cstring(a)...)
	}
	if imsgHeaderSize+len(cmd) > imsgMaxSize {
		return "", "", 1, &Error{Code: CodeTmuxError, Stderr: "command too long for one tmux call"}
	}
	msgs = appendMsg(msgs, msgCommand, cmd)
	// A large environment may not fit the socket's buffer in one go; Write writes it all. From
	// here on a failure is tmux's to report, never one to retry through the binary: the server
	// may have run some of the commands already.
	if _, err := uc.Write(msgs); err != nil {
		return "", "", 1, uc.failed("send the command to tmux", err)
	}

	var out, errOut strings.Builder
	// Most answers are a few hundred bytes; fresh memory costs a page fault per page touched.
	var buf []byte
	chunk := make([]byte, 16384)
	for {
		for {
			m, n, ok := parseMsg(buf)
			if !ok {
				break
			}
			buf = buf[n:]
			switch m.typ {
			case msgVersion:
				return "", "", 1, errProtocol
			case msgWriteOpen:
				if err := answerStream(uc, m, msgWriteReady); err != nil {
					return out.String(), errOut.String(), 1, uc.failed("answer tmux", err)
				}
			case msgWrite:
				if len(m.data) >= 4 {
					stream := int32(binary.LittleEndian.Uint32(m.data))
					if stream == 2 {
						errOut.Write(m.data[4:])
					} else {
						out.Write(m.data[4:])
					}
				}
			case msgWriteClose:
			case msgReadOpen:
				// A command that reads the client's stdin gets an empty one.
				if err := answerStream(uc, m, msgReadDone); err != nil {
					return out.String(), errOut.String(), 1, uc.failed("answer tmux", err)
				}
			case msgExit, msgShutdown:
				status := 0
				if len(m.data) >= 4 {
					status = int(int32(binary.LittleEndian.Uint32(m.data)))
				}
				return out.String(), errOut.String(), status, nil
			case msgExited:
				return out.String(), errOut.String(), 0, nil
			}
		}
		n, err := uc.Read(chunk)
		if n > 0 {
			buf = append(buf, chunk[:n]...)
			continue
		}
		if err != nil {
			if errors.Is(err, errTimedOut) {
				return out.String(), errOut.String(), 1, &Error{Code: CodeTmuxError, Stderr: uc.timedOut()}
			}
			return out.String(), errOut.String(), 1, &Error{Code: CodeServerNotRunning, Stderr: "the tmux server closed the connection: " + err.Error()}
		}
	}
}

// answerStream answers tmux's opening of a client stream (the stream's number, then a zero
// error) with typ; a message too short to name a stream needs no answer.
func answerStream(uc io.Writer, m imsg, typ uint32) error {
	if len(m.data) < 4 {
		return nil
	}
	reply := make([]byte, 8)
	copy(reply, m.data[:4])
	_, err := uc.Write(appendMsg(nil, typ, reply))
	return err
}

func parseMsg(b []byte) (imsg, int, bool) {
	if len(b) < imsgHeaderSize {
		return imsg{}, 0, false
	}
	n := int(binary.LittleEndian.Uint16(b[4:]))
	if n < imsgHeaderSize || len(b) < n {
		return imsg{}, 0, false
	}
	return imsg{typ: binary.LittleEndian.Uint32(b), data: b[imsgHeaderSize:n]}, n, true
}

func envValue(env []string, key, def string) string {
	for _, kv := range env {
		if strings.HasPrefix(kv, key+"=") {
			return kv[len(key)+1:]
		}
	}
	return def
}

// connectTimedOut is why a connection tmux never took gave up.
func connectTimedOut(patience time.Duration) string {
	return fmt.Sprintf("no answer within %s", patience)
}

// failed is a failure to write to the server, as an Error.
func (c *serverConn) failed(what string, err error) *Error {
	if errors.Is(err, errTimedOut) {
		return &Error{Code: CodeTmuxError, Stderr: c.timedOut()}
	}
	return &Error{Code: CodeServerNotRunning, Stderr: "could not " + what + ": " + err.Error()}
}
