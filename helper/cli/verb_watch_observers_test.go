package cli

import (
	"os"
	"strings"
	"testing"
)

// The server's watcher runs every feature that acts on its looks, in the documented order: done
// and the rollups before the notifications, hooks and saves that read them.
func TestWatcherObserversInOrder(t *testing.T) {
	var names []string
	for _, o := range watcherObservers(&Factory{Getenv: os.Getenv}) {
		names = append(names, o.Name())
	}
	if got, want := strings.Join(names, ", "), "attention, notify, events, automatic saves"; got != want {
		t.Errorf("observers = %s, want %s", got, want)
	}
}
