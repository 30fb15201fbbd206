package session

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/taw-tmux/taw/helper/coded"
)

// FormatName and Version mark a save file. A reader refuses a version newer than its own, so an
// older taw never half-restores a document it does not understand.
const (
	FormatName = "taw-session"
	Version    = 1
)

// Document is one save: every session of the server, as it was.
type Document struct {
	Format   string    `json:"format"`
	Version  int       `json:"version"`
	SavedAt  time.Time `json:"saved_at"`
	Origin   string    `json:"origin"` // save, autosave or import-resurrect
	Sessions []Session `json:"sessions"`
}

// Session is one tmux session.
type Session struct {
	Name    string   `json:"name"`
	Windows []Window `json:"windows"`
}

// Window is one window of a session. Layout is tmux's own layout string, unzoomed.
type Window struct {
	Index           int    `json:"index"`
	Name            string `json:"name"`
	Layout          string `json:"layout"`
	Active          bool   `json:"active"`
	Zoomed          bool   `json:"zoomed"`
	AutomaticRename bool   `json:"automatic_rename"`
	Panes           []Pane `json:"panes"`
}

// Pane is one pane of a window, in tmux's pane order.
type Pane struct {
	Index   int      `json:"index"`
	Dir     string   `json:"dir"`
	Title   string   `json:"title"`
	Active  bool     `json:"active"`
	Command string   `json:"command,omitempty"` // what ran in front of it; informational only
	Program *Program `json:"program,omitempty"`
	Agent   *Agent   `json:"agent,omitempty"`
	// Contents are the pane's visible contents and scrollback as capture-pane -e printed them
	// (colours kept), gzip-compressed; saved only when @agent-wizard-save-pane-contents is on.
	Contents []byte `json:"contents,omitempty"`
}

// Program is the program in front of the pane's shell when it was saved: its full argv, read
// from the process, and its working directory.
type Program struct {
	Argv []string `json:"argv"`
	Dir  string   `json:"dir,omitempty"`
	// VimSession is the Session.vim a restore may give vim (-S): recorded only with
	// @agent-wizard-restore-vim-sessions on and the file found safe (CheckVimSession) when saved.
	VimSession string `json:"vim_session,omitempty"`
}

// Agent is taw's record of the pane's agent: who held the pane, its session, and the resume
// command it reported.
type Agent struct {
	Name          string   `json:"name,omitempty"` // the effective agent people saw
	Source        string   `json:"source,omitempty"`
	ReportedKind  string   `json:"reported_kind,omitempty"`
	Detected      string   `json:"detected,omitempty"`
	SessionID     string   `json:"session_id,omitempty"`
	SessionPath   string   `json:"session_path,omitempty"`
	SessionSource string   `json:"session_source,omitempty"`
	SessionAgent  string   `json:"session_agent,omitempty"`
	Resume        []string `json:"resume,omitempty"`
	ResumeSource  string   `json:"resume_source,omitempty"`
	ResumeAgent   string   `json:"resume_agent,omitempty"`
}

// Counts are the sizes of a document.
type Counts struct {
	Sessions int `json:"sessions"`
	Windows  int `json:"windows"`
	Panes    int `json:"panes"`
	Agents   int `json:"agents"`
	Programs int `json:"programs"`
	Contents int `json:"contents"` // panes whose contents were saved
}

// Count sizes the document.
func (d *Document) Count() Counts {
	var c Counts
	c.Sessions = len(d.Sessions)
	for _, s := range d.Sessions {
		c.Windows += len(s.Windows)
		for _, w := range s.Windows {
			c.Panes += len(w.Panes)
			for _, p := range w.Panes {
				if p.Agent != nil {
					c.Agents++
				}
				if p.Program != nil {
					c.Programs++
				}
				if len(p.Contents) > 0 {
					c.Contents++
				}
			}
		}
	}
	return c
}

// Encode is the document as written to disk: indented, so people can read and diff it.
func Encode(d *Document) ([]byte, error) {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// DocumentError is a save file taw cannot use.
type DocumentError struct{ Reason string }

func (e *DocumentError) Error() string     { return e.Reason }
func (e *DocumentError) ErrorCode() string { return coded.SaveInvalid }

// Decode reads a save file and checks what a restore relies on.
func Decode(b []byte) (*Document, error) {
	var d Document
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, &DocumentError{fmt.Sprintf("not a taw save (%v)", err)}
	}
	if d.Format != FormatName {
		return nil, &DocumentError{fmt.Sprintf("not a taw save: format is %q, want %q", d.Format, FormatName)}
	}
	if d.Version < 1 || d.Version > Version {
		return nil, &DocumentError{fmt.Sprintf("written by a newer taw (version %d, this taw reads up to %d): upgrade taw", d.Version, Version)}
	}
	if err := d.Check(); err != nil {
		return nil, err
	}
	return &d, nil
}

// Check rejects a document a restore could not apply: a session with no name or no windows, a
// window with no panes, a name or index given twice.
func (d *Document) Check() error {
	seen := map[string]bool{}
	for i, s := range d.Sessions {
		if s.Name == "" {
			return &DocumentError{fmt.Sprintf("session %d has no name", i+1)}
		}
		if seen[s.Name] {
			return &DocumentError{fmt.Sprintf("session %q is saved twice", s.Name)}
		}
		seen[s.Name] = true
		if len(s.Windows) == 0 {
			return &DocumentError{fmt.Sprintf("session %q has no windows", s.Name)}
		}
		idx := map[int]bool{}
		for _, w := range s.Windows {
			if w.Index < 0 || idx[w.Index] {
				return &DocumentError{fmt.Sprintf("session %q: window index %d is negative or given twice", s.Name, w.Index)}
			}
			idx[w.Index] = true
			if len(w.Panes) == 0 {
				return &DocumentError{fmt.Sprintf("session %q window %d has no panes", s.Name, w.Index)}
			}
		}
	}
	return nil
}
