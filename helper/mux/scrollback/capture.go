package scrollback

import "github.com/taw-tmux/taw/helper/mux/wire"

// Capture reads a range of the ring as the protocol defines it. The result's line numbers are the
// ring's window, not the range returned; ansi=false strips escape sequences after the range is cut.
func (r *Ring) Capture(rng wire.CaptureRange, ansi bool) wire.CaptureResult {
	valid := r.valid()
	res := wire.CaptureResult{FirstAbsLine: r.FirstLine(), LastAbsLine: r.LastLine()}
	switch rng.Kind {
	case wire.RangeAll:
		res.Data = r.Bytes()
		res.EffectivelyFull = true
	case wire.RangeLastBytes:
		n := min(rng.LastBytes, valid)
		res.Data = r.slice(r.total-n, r.total)
		res.Truncated = rng.LastBytes > valid
		res.EffectivelyFull = rng.LastBytes >= valid
	case wire.RangeLineRange:
		start, end := rng.StartAbs, rng.EndAbs
		span := max(saturatingSub(res.LastAbsLine, res.FirstAbsLine), 1)
		res.EffectivelyFull = mulSat(saturatingSub(end, start), 100) >= mulSat(span, 80)
		switch {
		case start > end:
			res.Data = []byte{}
		case start < res.FirstAbsLine || end > res.LastAbsLine:
			// Partial data is never returned: all of the range or nothing.
			res.Data = []byte{}
			res.Truncated = true
		default:
			to := r.total
			if end < r.lines {
				to = r.lineStart(end + 1)
			}
			res.Data = r.slice(r.lineStart(start), to)
		}
	}
	if !ansi {
		res.Data = StripANSI(res.Data)
	}
	if res.Data == nil {
		res.Data = []byte{}
	}
	return res
}

func saturatingSub(a, b uint64) uint64 {
	if a < b {
		return 0
	}
	return a - b
}

func mulSat(a, b uint64) uint64 {
	if a != 0 && a*b/a != b {
		return ^uint64(0)
	}
	return a * b
}

// StripANSI removes escape sequences: CSI up to its final byte (0x40-0x7e), OSC up to BEL or
// ESC \, any other ESC with the byte after it, and a lone trailing ESC. Everything else, including
// \r, \n and \t, stays.
func StripANSI(p []byte) []byte {
	out := make([]byte, 0, len(p))
	for i := 0; i < len(p); i++ {
		if p[i] != 0x1b {
			out = append(out, p[i])
			continue
		}
		if i+1 >= len(p) {
			break
		}
		switch p[i+1] {
		case '[':
			j := i + 2
			for j < len(p) && (p[j] < 0x40 || p[j] > 0x7e) {
				j++
			}
			i = j // the final byte, or the end
		case ']':
			j := i + 2
			for j < len(p) {
				if p[j] == 0x07 {
					break
				}
				if p[j] == 0x1b && j+1 < len(p) && p[j+1] == '\\' {
					j++
					break
				}
				j++
			}
			i = j
		default:
			i++
		}
	}
	return out
}
