package session

import (
	"strings"
	"testing"
	"time"
)

// oldFormat is a save from before pane titles were kept (the window name on pane lines).
const oldFormat = "pane\t0\t0\t:bash\t1\t:*\t0\t:/tmp\t1\tbash\t:\n" +
	"pane\tblue\t0\t:vim\t0\t:!\t0\t:/tmp\t1\tvim\t:vim foo.txt\n" +
	"pane\tblue\t1\t:man\t0\t:!-\t0\t:/tmp\t0\tbash\t:\n" +
	"pane\tblue\t1\t:man\t0\t:!-\t1\t:/usr/share/man\t1\tman\t:man echo\n" +
	"window\t0\t0\t1\t:*\tce9d,200x49,0,0,0\n" +
	"window\tblue\t0\t0\t:!\tcea4,200x49,0,0,7\n" +
	"window\tblue\t1\t0\t:!-Z\t9797,200x49,0,0{100x49,0,0,8,99x49,101,0,9}\n" +
	"state\tblue\t0\n"

// newFormat has titles on pane lines and the window name and automatic-rename on window lines.
const newFormat = "pane\twork\t1\t1\t:*Z\t0\t\t:/home/u/my\\ project\t0\tbash\t:\n" +
	"pane\twork\t1\t1\t:*Z\t1\tbuild\t:/srv\t1\tcodex\t:codex resume 019a-77\n" +
	"window\twork\t1\t:agents\t1\t:*Z\t9797,200x49,0,0{100x49,0,0,8,99x49,101,0,9}\t:\n" +
	"grouped_session\twork2\twork\t:1\t:1\n"

func TestParseResurrect(t *testing.T) {
	d, notes, err := ParseResurrect(strings.NewReader(oldFormat), time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if c := d.Count(); c.Sessions != 2 || c.Windows != 3 || c.Panes != 4 || len(notes) != 0 {
		t.Fatalf("old format counts %+v %v", c, notes)
	}
	blue := d.Sessions[1]
	w := blue.Windows[1]
	if blue.Name != "blue" || w.Name != "man" || !w.Zoomed || w.AutomaticRename || w.Panes[1].Dir != "/usr/share/man" || !w.Panes[1].Active || w.Panes[1].Command != "man echo" {
		t.Fatalf("old format window %+v", w)
	}

	d, notes, err = ParseResurrect(strings.NewReader(newFormat), time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	w = d.Sessions[0].Windows[0]
	if w.Name != "agents" || !w.Active || !w.Zoomed || !w.AutomaticRename || len(w.Panes) != 2 {
		t.Fatalf("new format window %+v", w)
	}
	if w.Panes[0].Dir != "/home/u/my project" || w.Panes[0].Title != "" || w.Panes[1].Title != "build" {
		t.Fatalf("an empty title shifts nothing, an escaped space is a space: %+v", w.Panes)
	}
	a := w.Panes[1].Agent
	if a == nil || a.SessionAgent != "codex" || a.SessionID != "019a-77" {
		t.Fatalf("codex's own resume command names its session: %+v", a)
	}
	if res, _ := ChooseResume(a); res == nil || strings.Join(res.Argv, " ") != "codex resume 019a-77" {
		t.Fatalf("resume %+v", res)
	}
	if len(notes) != 1 || notes[0].Target != "work2" {
		t.Fatalf("a grouped session is said: %+v", notes)
	}
}

func TestParseResurrectBad(t *testing.T) {
	for _, bad := range []string{
		"hello\tworld\n",
		"pane\tx\t0\n",
		"pane\tx\tzero\t1\t:*\t0\tt\t:/\t1\tbash\t:\n",
		"window\tx\n",
		"window\tx\tone\t1\t:*\tce9d,200x49,0,0,0\n",
	} {
		if _, _, err := ParseResurrect(strings.NewReader(bad), time.Now()); err == nil {
			t.Errorf("ParseResurrect(%q) accepted", bad)
		}
	}
	// Plain commands are no agents, and an agent without its session has nothing to resume.
	for full, agent := range map[string]string{"vim x": "", "claude": "claude", "claude --resume": "claude"} {
		a := agentFromCommand(full)
		if (a == nil) != (agent == "") || (a != nil && (a.Name != agent || a.SessionID != "")) {
			t.Errorf("agentFromCommand(%q) = %+v", full, a)
		}
	}
}
