package herdrsock

import (
	"syscall"
	"testing"
)

func TestTTYPanes(t *testing.T) {
	var st syscall.Stat_t
	if err := syscall.Stat("/dev/null", &st); err != nil {
		t.Fatal(err)
	}
	dev := uint64(st.Rdev)
	var m ttyPanes
	rows := "%1 4242 /dev/null\n%2 bad /dev/zero\n%3 17 \n\n"
	if id, ok := m.refresh(rows, dev); !ok || id != "%1" {
		t.Fatalf("refresh: %q %v", id, ok)
	}
	if len(m.panes) != 1 {
		t.Errorf("rows kept: %v", m.panes)
	}
	// Process 4242 does not hold /dev/null as its terminal (no process can): the entry is not
	// trusted, and goes.
	if id, ok := m.lookup(dev); ok {
		t.Errorf("lookup trusted a stale entry: %s", id)
	}
	if len(m.panes) != 0 {
		t.Errorf("stale entry kept: %v", m.panes)
	}
}
