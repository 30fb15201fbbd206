// Package client speaks Conmux v1 to a daemon: the handshake, one request at a time with
// notifications set aside, and Attach with the snapshot stitched to the live stream (output with
// seq at or below the snapshot's last_seq is dropped, the rest kept in seq order).
package client
