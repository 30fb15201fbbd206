package agents

import (
	"os"
	"testing"

	"github.com/taw-tmux/taw/tests/testrun"
)

// TestMain keeps every tmux server and folder the tests make under one run folder, removed
// however the run ends.
func TestMain(m *testing.M) { os.Exit(testrun.Run(m)) }
