package session

import (
	"fmt"
	"strconv"
	"strings"
)

// LayoutChecksum is tmux's checksum of a layout body (what follows "csum,"): tmux refuses a layout
// whose checksum does not match.
func LayoutChecksum(body string) uint16 {
	var csum uint16
	for i := 0; i < len(body); i++ {
		csum = (csum >> 1) + ((csum & 1) << 15)
		csum += uint16(body[i])
	}
	return csum
}

// LayoutInfo is what a restore needs to know of a layout string before giving it to tmux: the
// window size it was made for and how many panes it places.
type LayoutInfo struct {
	Width, Height int
	Panes         int
}

// ParseLayout checks a tmux layout string ("b25d,80x24,0,0{40x24,0,0,1,39x24,41,0,2}") and reads
// its size and pane count.
func ParseLayout(s string) (LayoutInfo, error) {
	csum, body, ok := strings.Cut(s, ",")
	if !ok || len(csum) != 4 {
		return LayoutInfo{}, fmt.Errorf("layout %q has no checksum", s)
	}
	want, err := strconv.ParseUint(csum, 16, 16)
	if err != nil || uint16(want) != LayoutChecksum(body) {
		return LayoutInfo{}, fmt.Errorf("layout %q has a wrong checksum", s)
	}
	p := &layoutParser{s: body}
	w, h, err := p.cell()
	if err != nil {
		return LayoutInfo{}, err
	}
	if p.i != len(p.s) {
		return LayoutInfo{}, fmt.Errorf("layout %q has trailing text", s)
	}
	return LayoutInfo{Width: w, Height: h, Panes: p.leaves}, nil
}

type layoutParser struct {
	s      string
	i      int
	leaves int
	depth  int
}

// cell reads WxH,X,Y then either ",ID" (a pane) or a {…} / […] list of cells.
func (p *layoutParser) cell() (w, h int, err error) {
	if p.depth++; p.depth > 64 {
		return 0, 0, fmt.Errorf("layout nests too deep")
	}
	defer func() { p.depth-- }()
	if w, err = p.num(); err != nil {
		return
	}
	if err = p.want('x'); err != nil {
		return
	}
	if h, err = p.num(); err != nil {
		return
	}
	for k := 0; k < 2; k++ {
		if err = p.want(','); err != nil {
			return
		}
		if _, err = p.num(); err != nil {
			return
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == '{' || p.s[p.i] == '[') {
		closing := byte('}')
		if p.s[p.i] == '[' {
			closing = ']'
		}
		p.i++
		for {
			if _, _, err = p.cell(); err != nil {
				return
			}
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			err = p.want(closing)
			return
		}
	}
	if err = p.want(','); err != nil {
		return
	}
	if _, err = p.num(); err != nil {
		return
	}
	p.leaves++
	return
}

func (p *layoutParser) num() (int, error) {
	j := p.i
	for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' && j-p.i < 10 {
		j++
	}
	if j == p.i {
		return 0, fmt.Errorf("layout: a number was expected at offset %d", p.i)
	}
	n, _ := strconv.Atoi(p.s[p.i:j])
	p.i = j
	return n, nil
}

func (p *layoutParser) want(c byte) error {
	if p.i >= len(p.s) || p.s[p.i] != c {
		return fmt.Errorf("layout: %q was expected at offset %d", c, p.i)
	}
	p.i++
	return nil
}
