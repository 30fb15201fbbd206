package popup

import (
	"context"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Source is where the popup gets its data: every agent, most urgent first, and one pane's screen.
type Source interface {
	Rows(ctx context.Context) ([]Row, error)
	Screen(ctx context.Context, paneID string) ([]string, error)
}

// Answerer is a source that can answer a blocked agent's dialog from the popup, through the
// same checks as taw agent answer; it returns what happened, for the footer.
type Answerer interface {
	Answer(ctx context.Context, paneID string, key rune) (string, error)
}

// refreshEvery redraws at least this often, for the ages and as a backstop for missed wake-ups.
const refreshEvery = time.Second

// Run shows the popup on the terminal in/out until the user closes it, and returns the pane
// chosen with Enter ("" when closed without one). wake tells it the agents changed.
func Run(ctx context.Context, in, out *os.File, src Source, wake <-chan struct{}, now func() time.Time, taw string) (string, error) {
	restore, err := rawMode(int(in.Fd()))
	if err != nil {
		return "", err
	}
	defer restore()
	out.WriteString("\x1b[?1049h\x1b[?25l")
	defer out.WriteString("\x1b[0m\x1b[?25h\x1b[?1049l")

	m := &Model{Now: now(), Taw: taw}
	m.Width, m.Height = size(out)
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	defer signal.Stop(winch)

	keys := make(chan []byte, 16)
	go func() {
		buf := make([]byte, 256)
		for {
			n, err := in.Read(buf)
			if n > 0 {
				keys <- append([]byte(nil), buf[:n]...)
			}
			if err != nil {
				close(keys)
				return
			}
		}
	}()

	refresh := func() {
		rows, err := src.Rows(ctx)
		m.Err = ""
		if err != nil {
			m.Err = err.Error()
		} else {
			m.SetRows(rows)
		}
		m.SetPreview("", nil)
		preview(ctx, m, src)
	}
	refresh()
	tick := time.NewTicker(refreshEvery)
	defer tick.Stop()
	for {
		m.Now = now()
		draw(out, m)
		select {
		case b, ok := <-keys:
			if !ok {
				return "", nil
			}
			before := m.Selected()
			for _, k := range DecodeKeys(b) {
				m.Press(k)
				if m.Quit {
					return m.Choice, nil
				}
				if a := m.Answer; a != nil {
					m.Answer = nil
					if ans, ok := src.(Answerer); ok {
						msg, err := ans.Answer(ctx, a.PaneID, a.Key)
						if err != nil {
							msg = err.Error()
						}
						refresh()
						m.Said = msg
					}
				}
			}
			if m.Selected() != before {
				preview(ctx, m, src)
			}
		case <-wake:
			refresh()
		case <-tick.C:
			refresh()
		case <-winch:
			m.Width, m.Height = size(out)
			m.SetRows(m.Rows)
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

func preview(ctx context.Context, m *Model, src Source) {
	sel := m.Selected()
	if sel == "" || m.PreviewPane == sel {
		return
	}
	lines, err := src.Screen(ctx, sel)
	if err != nil {
		lines = []string{"(no screen: " + err.Error() + ")"}
	}
	m.SetPreview(sel, lines)
}

func draw(out *os.File, m *Model) {
	var b strings.Builder
	b.WriteString("\x1b[H")
	for i, l := range m.View() {
		if i > 0 {
			b.WriteString("\r\n")
		}
		b.WriteString(l)
		b.WriteString(reset)
	}
	out.WriteString(b.String())
}

func size(f *os.File) (w, h int) {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil || ws.Col == 0 || ws.Row == 0 {
		return 80, 24
	}
	return int(ws.Col), int(ws.Row)
}

// rawMode puts the terminal in raw mode (no echo, no line editing, no signals from keys) and
// returns the function that puts it back.
func rawMode(fd int) (func(), error) {
	old, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return nil, err
	}
	raw := *old
	raw.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	raw.Oflag &^= unix.OPOST
	raw.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	raw.Cflag &^= unix.CSIZE | unix.PARENB
	raw.Cflag |= unix.CS8
	raw.Cc[unix.VMIN] = 1
	raw.Cc[unix.VTIME] = 0
	if err := unix.IoctlSetTermios(fd, ioctlSetTermios, &raw); err != nil {
		return nil, err
	}
	return func() { _ = unix.IoctlSetTermios(fd, ioctlSetTermios, old) }, nil
}
