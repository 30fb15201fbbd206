//go:build linux

package herdrsock

import (
	"net"
	"syscall"
)

// peerOf is the process at the other end of a connection and its user, from SO_PEERCRED: what
// the kernel recorded when it connected, which the client cannot choose.
func peerOf(c *net.UnixConn) (Peer, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return Peer{}, err
	}
	var cred *syscall.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return Peer{}, err
	}
	if credErr != nil {
		return Peer{}, credErr
	}
	return Peer{PID: int(cred.Pid), UID: int(cred.Uid)}, nil
}
