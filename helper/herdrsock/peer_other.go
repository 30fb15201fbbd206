//go:build !linux

package herdrsock

import (
	"errors"
	"net"
)

// peerOf needs SO_PEERCRED; without it no connection is trusted.
func peerOf(c *net.UnixConn) (Peer, error) {
	return Peer{}, errors.New("the connecting process cannot be known on this system")
}
