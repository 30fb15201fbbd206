// Package wire is the Conmux v1 wire protocol: the frame envelope and every message it carries,
// their exact JSON encoding, a strict decoder that rejects what a Conmux v1 peer rejects, and the
// length-prefixed framing. It does no I/O beyond reading and writing frames on a stream.
package wire
