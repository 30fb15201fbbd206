package session

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/taw-tmux/taw/helper/filelock"
)

// Pane contents: a save keeps each pane's screen and scrollback (capture-pane -e, colours kept)
// compressed in the save itself; a restore starts the pane with taw's paint verb, which prints them
// (cleaned of every escape sequence but colours) and then becomes the pane's shell, so nothing of
// them is ever typed or run.

// CompressContents trims the blank rows below the last written one and gzips the rest; nil for a
// pane that shows nothing.
func CompressContents(captured []byte) []byte {
	captured = bytes.TrimRight(captured, " \n")
	if len(captured) == 0 {
		return nil
	}
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
	_, _ = zw.Write(captured)
	_ = zw.Close()
	return b.Bytes()
}

// maxContents bounds what one pane's contents may unpack to, so a hostile save cannot fill memory.
const maxContents = 64 << 20

// ExpandContents undoes CompressContents.
func ExpandContents(z []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		return nil, fmt.Errorf("pane contents: %w", err)
	}
	b, err := io.ReadAll(io.LimitReader(zr, maxContents+1))
	if err != nil {
		return nil, fmt.Errorf("pane contents: %w", err)
	}
	if len(b) > maxContents {
		return nil, fmt.Errorf("pane contents unpack to more than %d bytes", maxContents)
	}
	return b, nil
}

// CleanContents keeps what may reach the terminal from saved contents: text, newlines, tabs and
// colour and attribute changes (CSI … m). Every other escape sequence (titles, the clipboard,
// cursor moves, device queries) and control byte is dropped, and bytes that are not UTF-8 become
// U+FFFD, so a hand-edited save cannot drive the terminal.
func CleanContents(b []byte) []byte {
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == 0x1b:
			i = skipEscape(b, i, &out)
		case c == '\n' || c == '\t':
			out = append(out, c)
			i++
		case c < 0x20 || c == 0x7f:
			i++
		case c < 0x80:
			out = append(out, c)
			i++
		default:
			r, n := utf8.DecodeRune(b[i:])
			if (r >= 0x80 && r < 0xa0) || r == utf8.RuneError {
				if r == utf8.RuneError {
					out = utf8.AppendRune(out, utf8.RuneError)
				}
				i += n // C1 controls are dropped
				continue
			}
			out = append(out, b[i:i+n]...)
			i += n
		}
	}
	// Whatever colour the last row left on, the prompt that follows starts plain.
	return append(out, "\x1b[0m"...)
}

// skipEscape consumes the escape sequence at b[i] and keeps it only when it is SGR.
func skipEscape(b []byte, i int, out *[]byte) int {
	if i+1 >= len(b) {
		return len(b)
	}
	switch b[i+1] {
	case '[':
		j := i + 2
		for j < len(b) && b[j] >= 0x30 && b[j] <= 0x3f { // parameter bytes
			j++
		}
		k := j
		for k < len(b) && b[k] >= 0x20 && b[k] <= 0x2f { // intermediate bytes
			k++
		}
		if k >= len(b) {
			return len(b)
		}
		if b[k] == 'm' && k == j && onlySGRParams(b[i+2:j]) {
			*out = append(*out, b[i:k+1]...)
		}
		if b[k] >= 0x40 && b[k] <= 0x7e {
			return k + 1
		}
		return k // a broken sequence: drop its start, read on
	case ']', 'P', '_', '^', 'X': // OSC, DCS, APC, PM, SOS: up to BEL or ST
		for j := i + 2; j < len(b); j++ {
			if b[j] == 0x07 {
				return j + 1
			}
			if b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\' {
				return j + 2
			}
		}
		return len(b)
	default:
		j := i + 1
		for j < len(b) && b[j] >= 0x20 && b[j] <= 0x2f {
			j++
		}
		if j < len(b) {
			j++
		}
		return j
	}
}

func onlySGRParams(p []byte) bool {
	for _, c := range p {
		if !(c >= '0' && c <= '9') && c != ';' && c != ':' {
			return false
		}
	}
	return true
}

// PaintFile is what a restore leaves for one pane's paint verb: the contents and the shell the
// pane then becomes, as tmux would have started it.
type PaintFile struct {
	Contents     []byte `json:"contents"`      // compressed, as saved
	Shell        string `json:"shell"`         // tmux's default-shell
	ShellCommand string `json:"shell_command"` // tmux's default-command; "" starts a login shell
}

// paintDirName is the private folder of paint files, under the server's lock folder.
const paintDirName = "contents"

// WritePaintFile writes one pane's paint file into a folder only the user can read, which must be
// the user's own and no link, and returns its path.
func WritePaintFile(lockDir string, pf PaintFile) (string, error) {
	dir := filepath.Join(lockDir, paintDirName)
	if err := filelock.ClosedDir(dir); err != nil {
		return "", fmt.Errorf("pane contents folder: %w", err)
	}
	b, err := json.Marshal(pf)
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, "pane-")
	if err != nil {
		return "", fmt.Errorf("pane contents: %w", err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", fmt.Errorf("pane contents: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("pane contents: %w", err)
	}
	return f.Name(), nil
}

// maxPaintFile bounds what the paint verb reads.
const maxPaintFile = 32 << 20

// ReadPaintFile reads and removes a paint file. It opens no link and reads only a regular file of
// the user's own that nobody else may read, so another user cannot put words in a pane.
func ReadPaintFile(path string) (PaintFile, error) {
	var pf PaintFile
	if !strings.HasPrefix(filepath.Base(path), "pane-") || filepath.Base(filepath.Dir(path)) != paintDirName {
		return pf, fmt.Errorf("%s is not a paint file a restore wrote", path)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return pf, err
	}
	defer f.Close()
	defer os.Remove(path)
	st, err := f.Stat()
	if err != nil {
		return pf, err
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !st.Mode().IsRegular() || (ok && int(sys.Uid) != os.Getuid()) || st.Mode().Perm()&0o077 != 0 {
		return pf, fmt.Errorf("%s is not a private file of your own", path)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxPaintFile+1))
	if err != nil {
		return pf, err
	}
	if len(b) > maxPaintFile {
		return pf, fmt.Errorf("%s is larger than %d bytes", path, maxPaintFile)
	}
	if err := json.Unmarshal(b, &pf); err != nil {
		return pf, fmt.Errorf("%s: %w", path, err)
	}
	return pf, nil
}

// ShellArgv is how tmux starts a pane's shell (spawn.c): default-command run by default-shell -c,
// or default-shell as a login shell ("-sh") when no default-command is set.
func ShellArgv(shell, command string) (path string, argv []string) {
	if shell == "" || !filepath.IsAbs(shell) {
		shell = "/bin/sh"
	}
	name := filepath.Base(shell)
	if command != "" {
		return shell, []string{name, "-c", command}
	}
	return shell, []string{"-" + name}
}
