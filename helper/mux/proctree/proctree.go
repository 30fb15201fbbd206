package proctree

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

type procInfo struct{ pid, ppid, sid int }

func scan() []procInfo {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []procInfo
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil || isZombie(stat) {
			continue
		}
		if ppid, sid, ok := parentAndSession(stat); ok {
			out = append(out, procInfo{pid, ppid, sid})
		}
	}
	return out
}

// SessionMembers lists the live processes whose session id is sid.
func SessionMembers(sid int) []int {
	var pids []int
	for _, p := range scan() {
		if p.sid == sid {
			pids = append(pids, p.pid)
		}
	}
	return pids
}

// Tree lists root, the processes in the session it leads, and every descendant of any of them
// (a descendant that started a session of its own is still found through its parent).
func Tree(root int) []int {
	procs := scan()
	in := map[int]bool{root: true}
	for _, p := range procs {
		if p.sid == root {
			in[p.pid] = true
		}
	}
	for grew := true; grew; {
		grew = false
		for _, p := range procs {
			if !in[p.pid] && in[p.ppid] {
				in[p.pid], grew = true, true
			}
		}
	}
	out := make([]int, 0, len(in))
	for pid := range in {
		out = append(out, pid)
	}
	return out
}

// sessionOf reads the session field of /proc/PID/stat.
func sessionOf(stat []byte) (int, bool) {
	_, sid, ok := parentAndSession(stat)
	return sid, ok
}

// parentAndSession reads the ppid and session fields. The command name in parentheses may hold
// spaces and parentheses itself, so fields are counted from the last ")".
func parentAndSession(stat []byte) (ppid, sid int, ok bool) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, false
	}
	fields := bytes.Fields(stat[i+1:])
	// After the name: state, ppid, pgrp, session.
	if len(fields) < 4 {
		return 0, 0, false
	}
	ppid, err1 := strconv.Atoi(string(fields[1]))
	sid, err2 := strconv.Atoi(string(fields[3]))
	return ppid, sid, err1 == nil && err2 == nil
}

// isZombie says the process has ended and only waits to be reaped.
func isZombie(stat []byte) bool {
	i := bytes.LastIndexByte(stat, ')')
	fields := bytes.Fields(stat[i+1:])
	return len(fields) > 0 && string(fields[0]) == "Z"
}

// KillTree sends SIGKILL to every process of Tree(root), a few rounds over, to catch children
// forked while a round ran. It reports whether any process was signalled.
func KillTree(root int) bool {
	if root <= 1 {
		return false
	}
	any := false
	for round := 0; round < 3; round++ {
		members := Tree(root)
		hit := false
		for _, pid := range members {
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				hit = true
			}
		}
		any = any || hit
		if !hit {
			break
		}
	}
	return any
}
