package popup

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// What the popup and taw agent list say when no pane runs an agent: the hint, and how to make
// agents report (a second line in the popup).
const (
	NoAgentsHint = "no agents on this server yet: start one in a pane"
	noAgentsMore = " integration install makes the agents you use report their state"
)

// NoAgentsMore is the empty list's second hint, naming taw as the person can run it (taw, or
// its absolute path when no taw is on PATH).
func NoAgentsMore(taw string) string {
	if taw == "" {
		taw = "taw"
	}
	return taw + noAgentsMore
}

// ANSI styles; every styled run ends with a reset of just what it set, so rows compose.
const (
	bold    = "\x1b[1m"
	dim     = "\x1b[2m"
	normal  = "\x1b[22m"
	reverse = "\x1b[7m"
	noRev   = "\x1b[27m"
	reset   = "\x1b[0m"
)

var stateOrder = []string{"blocked", "done", "working", "idle", "unknown"}

func icon(state string) string {
	switch state {
	case "blocked":
		return "!"
	case "done":
		return "✓"
	case "working":
		return "●"
	case "idle":
		return "○"
	case "unknown":
		return "?"
	}
	return " "
}

func colour(state string) string {
	switch state {
	case "blocked":
		return "\x1b[31m"
	case "done":
		return "\x1b[32m"
	case "working":
		return "\x1b[33m"
	}
	return ""
}

const fgDefault = "\x1b[39m"

// layout is how the lines of the popup are shared out.
type layout struct {
	list    int // rows of the list
	preview int // rows of the preview, 0 for none (and no separator)
}

func (m *Model) layout() layout {
	body := m.Height - 3 // header, column heads, footer
	if body < 1 {
		return layout{list: max(body, 0)}
	}
	if body < 8 || m.Width < 30 {
		return layout{list: body}
	}
	n := len(m.Visible())
	list := min(max(n, 3), (body-1)*55/100)
	return layout{list: list, preview: body - 1 - list}
}

func (m *Model) listHeight() int { return m.layout().list }

// View draws the popup: exactly Height lines, each exactly Width cells wide.
func (m *Model) View() []string {
	if m.Width <= 0 || m.Height <= 0 {
		return nil
	}
	lay := m.layout()
	var lines []string
	lines = append(lines, m.header())
	if m.Height > 1 {
		lines = append(lines, m.heads())
	}
	vis := m.Visible()
	cols := m.columns()
	for i := 0; i < lay.list; i++ {
		j := m.Top + i
		switch {
		case j < len(vis):
			lines = append(lines, m.row(vis[j], cols, j == m.Cursor))
		case i == 0 && len(vis) == 0:
			msg := NoAgentsHint
			if len(m.Rows) > 0 {
				msg = "no agent matches " + strconv.Quote(m.Filter)
			}
			lines = append(lines, dim+Fit("  "+msg, m.Width)+normal)
		case i == 1 && len(vis) == 0 && len(m.Rows) == 0:
			lines = append(lines, dim+Fit("  "+NoAgentsMore(m.Taw), m.Width)+normal)
		default:
			lines = append(lines, strings.Repeat(" ", m.Width))
		}
	}
	if lay.preview > 0 {
		lines = append(lines, m.separator())
		lines = append(lines, m.preview(lay.preview)...)
	}
	if len(lines) < m.Height {
		lines = append(lines, m.footer())
	}
	for len(lines) < m.Height {
		lines = append(lines, strings.Repeat(" ", m.Width))
	}
	return lines[:m.Height]
}

func (m *Model) header() string {
	counts := map[string]int{}
	for _, r := range m.Rows {
		counts[r.State]++
	}
	left := " taw agents"
	plain := left
	styled := bold + left + normal
	for _, s := range stateOrder {
		if counts[s] == 0 {
			continue
		}
		part := fmt.Sprintf("%s%d", icon(s), counts[s])
		plain += "  " + part
		styled += "  " + colour(s) + part + fgDefault
	}
	right := "type to filter "
	if m.Filtering || m.Filter != "" {
		right = "filter: " + clean(m.Filter) + "▏ "
	}
	gap := m.Width - Width(plain) - Width(right)
	if gap < 1 {
		// Too narrow for both: the filter wins when one is being typed.
		if m.Filtering || m.Filter != "" {
			return Fit(" "+right, m.Width)
		}
		return Fit(plain, m.Width)
	}
	return styled + strings.Repeat(" ", gap) + dimIf(!m.Filtering && m.Filter == "", right)
}

func dimIf(on bool, s string) string {
	if on {
		return dim + s + normal
	}
	return s
}

// columns are the widths of a row's fields.
type columns struct{ agent, target, dir, msg int }

func (m *Model) columns() columns {
	c := columns{agent: 5, target: 6}
	for _, r := range m.Rows {
		c.agent = max(c.agent, Width(r.Agent))
		c.target = max(c.target, Width(r.Target))
	}
	c.agent, c.target = min(c.agent, 16), min(c.target, 20)
	// icon+space, agent, space, target, space … space, age (4), trailing space.
	rest := m.Width - (2 + c.agent + 1 + c.target + 1) - (1 + 4 + 1)
	if rest < 0 {
		c.target = max(c.target+rest, 0)
		rest = 0
	}
	if rest >= 16 {
		c.dir = min(rest*2/5, 32)
		c.msg = rest - c.dir - 1
	} else {
		c.msg = rest
	}
	return c
}

func (m *Model) heads() string {
	c := m.columns()
	s := "  " + Fit("AGENT", c.agent) + " " + Fit("PANE", c.target) + " "
	if c.dir > 0 {
		s += Fit("DIRECTORY", c.dir) + " "
	}
	s += Fit("MESSAGE", c.msg) + " " + fmt.Sprintf("%4s", "FOR") + " "
	return dim + Fit(s, m.Width) + normal
}

func (m *Model) row(r Row, c columns, selected bool) string {
	if m.Width < 24 {
		// Too narrow for columns: the icon, the agent and its pane.
		s := Fit(icon(r.State)+" "+clean(r.Agent)+" "+clean(r.Target), m.Width)
		if selected {
			return reverse + s + noRev
		}
		return s
	}
	msg := clean(r.Message)
	msgStyle := ""
	if msg == "" {
		msg, msgStyle = r.State, dim
	}
	age := "-"
	if !r.Since.IsZero() {
		age = Age(m.Now.Sub(r.Since))
	}
	var b strings.Builder
	if selected {
		b.WriteString(reverse)
	}
	b.WriteString(colour(r.State) + icon(r.State) + fgDefault + " ")
	b.WriteString(Fit(clean(r.Agent), c.agent) + " ")
	b.WriteString(Fit(clean(r.Target), c.target) + " ")
	if c.dir > 0 {
		b.WriteString(FitLeft(clean(r.Dir), c.dir) + " ")
	}
	if msgStyle != "" && !selected {
		b.WriteString(msgStyle + Fit(msg, c.msg) + normal)
	} else {
		b.WriteString(Fit(msg, c.msg))
	}
	b.WriteString(" " + fmt.Sprintf("%4s", age) + " ")
	used := 2 + c.agent + 1 + c.target + 1 + c.msg + 1 + 4 + 1
	if c.dir > 0 {
		used += c.dir + 1
	}
	if used < m.Width {
		b.WriteString(strings.Repeat(" ", m.Width-used))
	}
	if selected {
		b.WriteString(noRev)
	}
	return b.String()
}

func (m *Model) separator() string {
	label := ""
	for _, r := range m.Rows {
		if r.PaneID == m.Selected() {
			label = " " + clean(r.Target) + " · " + clean(r.Agent) + " "
		}
	}
	if Width(label) > m.Width-4 {
		label = Fit(label, max(m.Width-4, 0))
	}
	return dim + "──" + label + strings.Repeat("─", max(m.Width-2-Width(label), 0)) + normal
}

// preview is the bottom of the selected pane's screen, n lines.
func (m *Model) preview(n int) []string {
	var lines []string
	if m.PreviewPane == m.Selected() {
		lines = m.PreviewLines
	}
	end := len(lines)
	for end > 0 && strings.TrimSpace(lines[end-1]) == "" {
		end--
	}
	lines = lines[:end]
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	out := make([]string, 0, n)
	for _, l := range lines {
		out = append(out, " "+Fit(clean(l), m.Width-1))
	}
	for len(out) < n {
		out = append(out, strings.Repeat(" ", m.Width))
	}
	return out
}

func (m *Model) footer() string {
	pos := ""
	if n := len(m.Visible()); n > 0 {
		pos = fmt.Sprintf("%d/%d ", m.Cursor+1, n)
	}
	if m.Err != "" {
		return "\x1b[31m" + Fit(" "+clean(m.Err), m.Width) + fgDefault
	}
	if m.Said != "" {
		return Fit(" "+clean(m.Said), m.Width)
	}
	help := " ↑↓ move  enter go  / filter  esc close"
	if m.Filtering {
		help = " ↑↓ move  enter go  backspace edit  esc clear"
	}
	gap := m.Width - Width(help) - Width(pos)
	if gap < 1 {
		return dim + Fit(help, m.Width) + normal
	}
	return dim + help + strings.Repeat(" ", gap) + pos + normal
}

// Age is a duration in its largest whole unit: 5s, 3m, 2h, 4d.
func Age(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < time.Minute:
		return strconv.Itoa(int(d/time.Second)) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	}
	return strconv.Itoa(int(d/(24*time.Hour))) + "d"
}
