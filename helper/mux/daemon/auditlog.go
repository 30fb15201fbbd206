package daemon

import (
	"os"
	"sync"
)

// maxLogBytes is where the connection log rolls over to PATH.1.
const maxLogBytes = 1 << 20

// RollingLog appends to a file and, before a write, moves it to PATH.1 once it is over 1 MiB.
// Failures are ignored: the log is best-effort and never stops the daemon.
type RollingLog struct {
	Path string
	mu   sync.Mutex
}

func (l *RollingLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if st, err := os.Stat(l.Path); err == nil && st.Size() > maxLogBytes {
		_ = os.Rename(l.Path, l.Path+".1")
	}
	f, err := os.OpenFile(l.Path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return len(p), nil
	}
	defer f.Close()
	_, _ = f.Write(p)
	return len(p), nil
}
