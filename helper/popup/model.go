package popup

import (
	"strings"
	"time"
	"unicode"
)

// Row is one agent as the popup lists it.
type Row struct {
	PaneID  string
	Target  string // session:window.pane
	Window  string // the window's name
	Agent   string // the name people see
	State   string // idle, working, blocked, done, unknown
	Dir     string // already shortened (~/…)
	Message string
	Since   time.Time // when it entered its state; zero when unknown
}

// Model is everything the popup shows; Key and the Set methods change it, View draws it.
type Model struct {
	Rows      []Row // every agent, most urgent first
	Filter    string
	Filtering bool // typing goes to the filter (j, k and q included)
	Cursor    int  // index into Visible()
	Top       int  // first visible row of the list
	Width     int
	Height    int
	Now       time.Time
	Err       string // the last refresh's error, shown in the footer
	// Said is the answer to the last answer key (what was typed, or why nothing was), shown in
	// the footer until the next key: a refresh every second must not wipe it before it is read.
	Said string
	// Taw is how hints name taw so they work as typed: "taw", or its absolute path.
	Taw string

	PreviewPane  string
	PreviewLines []string

	Quit   bool
	Choice string // the pane to go to, set by Enter

	// Answer is a key pressed on a blocked row (y, n or a digit), for the dialog of that pane;
	// Run hands it to the source and clears it.
	Answer *Answer
}

// Answer is a key that answers the dialog of a blocked agent's pane.
type Answer struct {
	PaneID string
	Key    rune
}

// Selected is the pane under the cursor, "" when the list is empty.
func (m *Model) Selected() string {
	v := m.Visible()
	if m.Cursor < 0 || m.Cursor >= len(v) {
		return ""
	}
	return v[m.Cursor].PaneID
}

// SetRows replaces the rows (a refresh), keeping the cursor on the same pane when it is still
// listed.
func (m *Model) SetRows(rows []Row) {
	keep := m.Selected()
	m.Rows = rows
	m.cursorOn(keep)
	m.clamp()
}

// SetPreview is the selected pane's screen.
func (m *Model) SetPreview(pane string, lines []string) {
	m.PreviewPane, m.PreviewLines = pane, lines
}

// Visible are the rows the filter lets through, in order.
func (m *Model) Visible() []Row {
	if m.Filter == "" {
		return m.Rows
	}
	words := strings.Fields(strings.ToLower(m.Filter))
	var out []Row
	for _, r := range m.Rows {
		hay := strings.ToLower(strings.Join([]string{r.Agent, r.State, r.Target, r.Window, r.Dir, r.Message, r.PaneID}, "\x00"))
		all := true
		for _, w := range words {
			if !strings.Contains(hay, w) {
				all = false
				break
			}
		}
		if all {
			out = append(out, r)
		}
	}
	return out
}

// Key is one key press, decoded.
type Key struct {
	Name string // up, down, pgup, pgdown, home, end, enter, esc, backspace, ctrl-c, ctrl-u; "" for a rune
	Rune rune
}

// Press applies a key.
func (m *Model) Press(k Key) {
	m.Said = ""
	switch k.Name {
	case "up", "ctrl-p":
		m.Cursor--
	case "down", "ctrl-n", "tab":
		m.Cursor++
	case "pgup":
		m.Cursor -= m.listHeight()
	case "pgdown":
		m.Cursor += m.listHeight()
	case "home":
		m.Cursor = 0
	case "end":
		m.Cursor = len(m.Visible()) - 1
	case "enter":
		if sel := m.Selected(); sel != "" {
			m.Choice, m.Quit = sel, true
		}
	case "esc":
		if m.Filter != "" || m.Filtering {
			m.setFilter("")
			m.Filtering = false
		} else {
			m.Quit = true
		}
	case "ctrl-c":
		m.Quit = true
	case "ctrl-u":
		m.setFilter("")
	case "backspace":
		if r := []rune(m.Filter); len(r) > 0 {
			m.setFilter(string(r[:len(r)-1]))
		}
		if m.Filter == "" {
			m.Filtering = false
		}
	case "":
		m.typeRune(k.Rune)
	}
	m.clamp()
}

func (m *Model) typeRune(r rune) {
	if !m.Filtering {
		switch r {
		case 'j':
			m.Cursor++
			return
		case 'k':
			m.Cursor--
			return
		case 'q':
			m.Quit = true
			return
		case '/':
			m.Filtering = true
			return
		case 'y', 'n', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			if v := m.Visible(); m.Cursor >= 0 && m.Cursor < len(v) && v[m.Cursor].State == "blocked" {
				m.Answer = &Answer{PaneID: v[m.Cursor].PaneID, Key: r}
				return
			}
		}
	}
	if !unicode.IsPrint(r) {
		return
	}
	m.Filtering = true
	m.setFilter(m.Filter + string(r))
}

func (m *Model) setFilter(f string) {
	keep := m.Selected()
	m.Filter = f
	m.cursorOn(keep)
}

// cursorOn puts the cursor on the visible row of the pane, or on the first row when the pane is
// not shown.
func (m *Model) cursorOn(paneID string) {
	m.Cursor = 0
	for i, r := range m.Visible() {
		if r.PaneID == paneID {
			m.Cursor = i
			return
		}
	}
}

// clamp keeps the cursor on a row and the row in the list's window.
func (m *Model) clamp() {
	n := len(m.Visible())
	if m.Cursor >= n {
		m.Cursor = n - 1
	}
	if m.Cursor < 0 {
		m.Cursor = 0
	}
	h := m.listHeight()
	if m.Cursor < m.Top {
		m.Top = m.Cursor
	}
	if h > 0 && m.Cursor >= m.Top+h {
		m.Top = m.Cursor - h + 1
	}
	if m.Top > n-h {
		m.Top = n - h
	}
	if m.Top < 0 {
		m.Top = 0
	}
}
