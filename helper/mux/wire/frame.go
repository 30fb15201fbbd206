package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// MaxFrameBytes bounds a frame's JSON body (the 4-byte length prefix not counted); a body of
// exactly this size is allowed.
const MaxFrameBytes = 4 * 1024 * 1024

// OversizeError is a frame whose declared or encoded length is over MaxFrameBytes.
type OversizeError struct{ Len uint64 }

func (e *OversizeError) Error() string {
	return fmt.Sprintf("frame of %d bytes is over the %d-byte limit", e.Len, MaxFrameBytes)
}

// ReadFrame reads one length-prefixed body. It returns io.EOF when the peer closed cleanly between
// frames, io.ErrUnexpectedEOF when it closed inside one, and *OversizeError, before allocating
// anything, when the declared length is over the limit.
func ReadFrame(r io.Reader) ([]byte, error) { return readFrame(r, nil) }

// readFrame is ReadFrame into buf when the body fits it.
func readFrame(r io.Reader, buf []byte) ([]byte, error) {
	var prefix [4]byte
	n, err := io.ReadFull(r, prefix[:])
	switch {
	case n == 0 && errors.Is(err, io.EOF):
		return nil, io.EOF
	case err != nil:
		if errors.Is(err, io.EOF) {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	size := binary.LittleEndian.Uint32(prefix[:])
	if size > MaxFrameBytes {
		return nil, &OversizeError{Len: uint64(size)}
	}
	body := buf[:0]
	if cap(body) < int(size) {
		body = make([]byte, size)
	}
	body = body[:size]
	if _, err := io.ReadFull(r, body); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return body, nil
}

// AppendFrame appends the length prefix and body, refusing a body over the limit so that no
// half frame is ever written.
func AppendFrame(dst, body []byte) ([]byte, error) {
	if len(body) > MaxFrameBytes {
		return dst, &OversizeError{Len: uint64(len(body))}
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(body)))
	return append(dst, body...), nil
}

// WriteFrame encodes f and writes it as one frame.
func WriteFrame(w io.Writer, f Frame) error {
	buf, err := EncodeFramed(f)
	if err != nil {
		return err
	}
	_, err = w.Write(buf)
	return err
}

// ReadDecoded reads and decodes one frame.
func ReadDecoded(r io.Reader) (Frame, error) {
	body, err := ReadFrame(r)
	if err != nil {
		return nil, err
	}
	return DecodeFrame(body)
}

// Reader reads and decodes frames one after another through one body buffer: a decoded frame
// keeps nothing of its body, so a stream of output costs no allocation per frame for the body.
type Reader struct {
	r    io.Reader
	body []byte
}

// keepBody is the largest body buffer a Reader keeps between frames; a rare big frame (a
// snapshot, a large Send) is not held for the life of the connection.
const keepBody = 256 * 1024

// NewReader reads frames from r.
func NewReader(r io.Reader) *Reader { return &Reader{r: r} }

// Next reads and decodes the next frame, with ReadFrame's errors.
func (fr *Reader) Next() (Frame, error) {
	body, err := readFrame(fr.r, fr.body)
	if err != nil {
		return nil, err
	}
	if cap(body) <= keepBody {
		fr.body = body
	}
	return DecodeFrame(body)
}
