package cli

import (
	"testing"
	"time"

	"github.com/taw-tmux/taw/helper/coded"
)

// parsedSession is what one command line parsed to, in place of running it.
type parsedSession struct {
	save    *sessionSaveOptions
	restore *sessionRestoreOptions
	del     *sessionDeleteOptions
	imp     *sessionImportOptions
}

func sessionTestApp(t *testing.T, args string) (parsedSession, error) {
	t.Helper()
	var p parsedSession
	err := parseArgs(t, nil, args, parsedInto(&p.save, &p.restore, &p.del, &p.imp))
	return p, err
}

func TestNewSessionCommands(t *testing.T) {
	p, err := sessionTestApp(t, "taw session save")
	if err != nil || p.save == nil || p.save.Name != "default" || p.save.Force || p.save.JSON {
		t.Fatalf("save defaults: %+v %v", p.save, err)
	}
	p, err = sessionTestApp(t, "taw session save --json --name my-agent-test --force")
	if err != nil || p.save.Name != "my-agent-test" || !p.save.Force || !p.save.JSON {
		t.Fatalf("save flags: %+v %v", p.save, err)
	}
	p, err = sessionTestApp(t, "taw session restore --name x --backup 2 --wait 30s")
	if err != nil || p.restore.Name != "x" || p.restore.Backup != 2 || p.restore.Wait != 30*time.Second {
		t.Fatalf("restore flags: %+v %v", p.restore, err)
	}
	p, err = sessionTestApp(t, "taw session restore")
	if err != nil || p.restore.Wait != restorePromptWait || p.restore.Backup != 0 {
		t.Fatalf("restore defaults: %+v %v", p.restore, err)
	}
	p, err = sessionTestApp(t, "taw session delete old --json")
	if err != nil || p.del.Name != "old" || !p.del.JSON {
		t.Fatalf("delete: %+v %v", p.del, err)
	}
	p, err = sessionTestApp(t, "taw session import-resurrect /f/last")
	if err != nil || p.imp.File != "/f/last" || p.imp.Name != "resurrect" {
		t.Fatalf("import: %+v %v", p.imp, err)
	}

	for _, tt := range []struct{ args, code string }{
		{"taw session save extra", coded.Usage},
		{"taw session save --name ../x", coded.InvalidArgument},
		{"taw session restore --backup -1", coded.InvalidArgument},
		{"taw session restore --wait 0s", coded.InvalidArgument},
		{"taw session delete", coded.Usage},
		{"taw session delete a b", coded.Usage},
		{"taw session import-resurrect a b", coded.Usage},
		{"taw session nope", coded.Usage},
		{"taw session paint", coded.Usage},
		{"taw session paint a b", coded.Usage},
		{"taw session restore-on-start extra", coded.Usage},
	} {
		if _, err := sessionTestApp(t, tt.args); err == nil || AsError(err).Code != tt.code {
			t.Errorf("%s: %v, want code %s", tt.args, err, tt.code)
		}
	}
}
