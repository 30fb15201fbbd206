package wire

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Encode writes a frame as the compact JSON a Conmux v1 peer writes: fields in declaration order,
// every optional field present (null when absent), non-ASCII characters raw.
func Encode(f Frame) ([]byte, error) {
	e := &encoder{buf: make([]byte, 0, sizeHint(f))}
	if err := e.frame(f); err != nil {
		return nil, err
	}
	return e.buf, nil
}

// EncodeFramed is Encode with the length prefix in front, built in one buffer.
func EncodeFramed(f Frame) ([]byte, error) {
	return AppendFramed(make([]byte, 0, 4+sizeHint(f)), f)
}

// AppendFramed appends the length prefix and the frame to dst, so that a caller can reuse one
// buffer for frame after frame. On an error dst comes back as it was.
func AppendFramed(dst []byte, f Frame) ([]byte, error) {
	start := len(dst)
	e := encoder{buf: append(dst, 0, 0, 0, 0)}
	if err := e.frame(f); err != nil {
		return dst, err
	}
	n := len(e.buf) - start - 4
	if n > MaxFrameBytes {
		return dst, &OversizeError{Len: uint64(n)}
	}
	binary.LittleEndian.PutUint32(e.buf[start:], uint32(n))
	return e.buf, nil
}

// sizeHint guesses a frame's encoded size, so that big outputs are not copied while growing.
func sizeHint(f Frame) int {
	if n, ok := f.(*Notify); ok {
		if o, ok := n.Event.(*PaneOutput); ok {
			return base64.StdEncoding.EncodedLen(len(o.Data)) + 96 + len(o.PaneID)
		}
	}
	return 256
}

func (e *encoder) frame(f Frame) error {
	switch f := f.(type) {
	case *Hello:
		e.raw(`{"Hello":{"protocol_version":`)
		e.uint(uint64(f.ProtocolVersion))
		e.raw(`,"client_kind":`)
		e.str(f.ClientKind)
		e.raw(`}}`)
	case *HelloAck:
		e.raw(`{"HelloAck":{"protocol_version":`)
		e.uint(uint64(f.ProtocolVersion))
		e.raw(`,"daemon_version":`)
		e.str(f.DaemonVersion)
		e.raw(`}}`)
	case *Request:
		e.raw(`{"Request":`)
		if err := e.request(f); err != nil {
			return err
		}
		e.raw(`}`)
	case *Reply:
		e.raw(`{"Reply":`)
		if err := e.reply(f); err != nil {
			return err
		}
		e.raw(`}`)
	case *Notify:
		e.raw(`{"Notify":`)
		if err := e.event(f.Event); err != nil {
			return err
		}
		e.raw(`}`)
	default:
		return fmt.Errorf("encode frame: unknown frame type %T", f)
	}
	return nil
}

// EncodeOp writes one operation alone, as it appears in a Request's "op".
func EncodeOp(op Op) ([]byte, error) {
	e := &encoder{}
	err := e.op(op)
	return e.buf, err
}

// EncodeReply writes a reply alone (the MuxReply inside a Reply frame).
func EncodeReply(r *Reply) ([]byte, error) {
	e := &encoder{}
	err := e.reply(r)
	return e.buf, err
}

type encoder struct{ buf []byte }

func (e *encoder) raw(s string)  { e.buf = append(e.buf, s...) }
func (e *encoder) uint(n uint64) { e.buf = strconv.AppendUint(e.buf, n, 10) }
func (e *encoder) int(n int64)   { e.buf = strconv.AppendInt(e.buf, n, 10) }
func (e *encoder) bool(b bool)   { e.buf = strconv.AppendBool(e.buf, b) }
func (e *encoder) b64(data []byte) {
	e.buf = append(base64.StdEncoding.AppendEncode(append(e.buf, '"'), data), '"')
}
func (e *encoder) key(name string) { e.raw(`"` + name + `":`) }
func (e *encoder) comma()          { e.buf = append(e.buf, ',') }

// str escapes only what JSON requires: the quote, the backslash and bytes below 0x20. Invalid
// UTF-8 becomes U+FFFD, since a frame must be valid UTF-8.
func (e *encoder) str(s string) {
	const hex = "0123456789abcdef"
	e.buf = append(e.buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				e.buf = append(e.buf, "\ufffd"...)
			} else {
				e.buf = append(e.buf, s[i:i+n]...)
			}
			i += n
			continue
		}
		switch c {
		case '"':
			e.raw(`\"`)
		case '\\':
			e.raw(`\\`)
		case '\b':
			e.raw(`\b`)
		case '\f':
			e.raw(`\f`)
		case '\n':
			e.raw(`\n`)
		case '\r':
			e.raw(`\r`)
		case '\t':
			e.raw(`\t`)
		default:
			if c < 0x20 {
				e.buf = append(e.buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			} else {
				e.buf = append(e.buf, c)
			}
		}
		i++
	}
	e.buf = append(e.buf, '"')
}

func (e *encoder) optStr(s *string) {
	if s == nil {
		e.raw("null")
		return
	}
	e.str(*s)
}

func (e *encoder) request(r *Request) error {
	e.raw(`{"correlation_id":`)
	e.uint(r.CorrelationID)
	e.raw(`,"op":`)
	if err := e.op(r.Op); err != nil {
		return err
	}
	e.raw(`}`)
	return nil
}

func (e *encoder) paneOnly(variant, pane string) {
	e.raw(`{"` + variant + `":{"pane_id":`)
	e.str(pane)
	e.raw(`}}`)
}

func (e *encoder) op(op Op) error {
	switch op := op.(type) {
	case *OpSpawn:
		e.raw(`{"Spawn":`)
		e.spawnRequest(&op.Request)
		e.raw(`}`)
	case *OpSend:
		e.raw(`{"Send":{"pane_id":`)
		e.str(op.PaneID)
		e.raw(`,"data":`)
		e.b64(op.Data)
		e.raw(`}}`)
	case *OpCapture:
		e.raw(`{"Capture":{"pane_id":`)
		e.str(op.Request.PaneID)
		e.raw(`,"range":`)
		e.captureRange(op.Request.Range)
		e.raw(`,"ansi":`)
		e.bool(op.Request.Ansi)
		e.raw(`}}`)
	case *OpResize:
		e.raw(`{"Resize":{"pane_id":`)
		e.str(op.PaneID)
		e.raw(`,"size":`)
		e.size(op.Size)
		e.raw(`}}`)
	case *OpKillTree:
		e.paneOnly("KillTree", op.PaneID)
	case *OpListPanes:
		e.raw(`"ListPanes"`)
	case *OpRespawn:
		e.raw(`{"Respawn":`)
		e.spawnRequest(&op.Request)
		e.raw(`}`)
	case *OpSubscribe:
		e.paneOnly("Subscribe", op.PaneID)
	case *OpUnsubscribe:
		e.paneOnly("Unsubscribe", op.PaneID)
	case *OpAttach:
		e.paneOnly("Attach", op.PaneID)
	case *OpListThemes:
		e.raw(`"ListThemes"`)
	case *OpSetTheme:
		e.raw(`{"SetTheme":{"id":`)
		e.str(op.ID)
		e.raw(`}}`)
	case *OpKillServer:
		e.raw(`"KillServer"`)
	case *OpPinExecutable:
		e.raw(`{"PinExecutable":{"path":`)
		e.str(op.Path)
		e.raw(`}}`)
	case *OpUnpinExecutable:
		e.raw(`{"UnpinExecutable":{"path":`)
		e.str(op.Path)
		e.raw(`}}`)
	default:
		return fmt.Errorf("encode op: unknown op type %T", op)
	}
	return nil
}

func (e *encoder) spawnRequest(r *SpawnRequest) {
	e.raw(`{"pane_id":`)
	e.str(r.PaneID)
	e.raw(`,"command":{"program":`)
	e.str(r.Command.Program)
	e.raw(`,"args":[`)
	for i, a := range r.Command.Args {
		if i > 0 {
			e.comma()
		}
		e.str(a)
	}
	e.raw(`],"cwd":`)
	e.optStr(r.Command.Cwd)
	e.raw(`,"env":[`)
	for i, kv := range r.Command.Env {
		if i > 0 {
			e.comma()
		}
		e.raw(`[`)
		e.str(kv[0])
		e.comma()
		e.str(kv[1])
		e.raw(`]`)
	}
	e.raw(`]},"size":`)
	e.size(r.Size)
	e.raw(`,"adapter_id":`)
	e.str(r.AdapterID)
	e.raw(`,"display_name":`)
	e.optStr(r.DisplayName)
	e.raw(`,"created_at":`)
	e.int(r.CreatedAt)
	e.raw(`}`)
}

func (e *encoder) size(s PaneSize) {
	e.raw(`{"rows":`)
	e.uint(uint64(s.Rows))
	e.raw(`,"cols":`)
	e.uint(uint64(s.Cols))
	e.raw(`}`)
}

func (e *encoder) captureRange(r CaptureRange) {
	switch r.Kind {
	case RangeLastBytes:
		e.raw(`{"LastBytes":`)
		e.uint(r.LastBytes)
		e.raw(`}`)
	case RangeLineRange:
		e.raw(`{"LineRange":{"start_abs":`)
		e.uint(r.StartAbs)
		e.raw(`,"end_abs":`)
		e.uint(r.EndAbs)
		e.raw(`}}`)
	default:
		e.raw(`"All"`)
	}
}

func (e *encoder) reply(r *Reply) error {
	if r.Error != nil {
		e.raw(`{"Err":{"correlation_id":`)
		e.uint(r.CorrelationID)
		e.raw(`,"error":`)
		if err := e.muxError(r.Error); err != nil {
			return err
		}
		e.raw(`}}`)
		return nil
	}
	e.raw(`{"Ok":{"correlation_id":`)
	e.uint(r.CorrelationID)
	e.raw(`,"payload":`)
	if err := e.payload(r.Payload); err != nil {
		return err
	}
	e.raw(`}}`)
	return nil
}

func (e *encoder) muxError(x *Error) error {
	fields, ok := errorFields[x.Kind]
	if !ok {
		return fmt.Errorf("encode error: unknown error kind %q", x.Kind)
	}
	e.raw(`{"` + string(x.Kind) + `":{`)
	for i, f := range fields {
		if i > 0 {
			e.comma()
		}
		e.key(f)
		e.str(*x.field(f))
	}
	e.raw(`}}`)
	return nil
}

func (e *encoder) payload(p Payload) error {
	switch p := p.(type) {
	case Ack:
		if !validAck(p) {
			return fmt.Errorf("encode payload: unknown acknowledgement %q", string(p))
		}
		e.str(string(p))
	case *Spawned:
		e.raw(`{"Spawned":`)
		e.str(p.PaneID)
		e.raw(`}`)
	case *Captured:
		e.raw(`{"Captured":`)
		e.captureResult(&p.Result)
		e.raw(`}`)
	case *Panes:
		e.raw(`{"Panes":[`)
		for i := range p.Panes {
			if i > 0 {
				e.comma()
			}
			e.paneState(&p.Panes[i])
		}
		e.raw(`]}`)
	case *AttachSnapshot:
		e.raw(`{"AttachSnapshot":{"mode_preamble_b64":`)
		e.b64(p.ModePreamble)
		e.raw(`,"history_b64":`)
		e.b64(p.History)
		e.raw(`,"last_seq":`)
		e.uint(p.LastSeq)
		e.raw(`,"pane_state":`)
		e.paneState(&p.PaneState)
		e.raw(`}}`)
	case *Themes:
		e.raw(`{"Themes":`)
		e.themes(p.Themes)
		e.raw(`}`)
	default:
		return fmt.Errorf("encode payload: unknown payload type %T", p)
	}
	return nil
}

func validAck(a Ack) bool {
	for _, k := range acks {
		if a == k {
			return true
		}
	}
	return false
}

func (e *encoder) captureResult(r *CaptureResult) {
	e.raw(`{"data_base64":`)
	e.b64(r.Data)
	e.raw(`,"first_abs_line":`)
	e.uint(r.FirstAbsLine)
	e.raw(`,"last_abs_line":`)
	e.uint(r.LastAbsLine)
	e.raw(`,"truncated":`)
	e.bool(r.Truncated)
	e.raw(`,"effectively_full":`)
	e.bool(r.EffectivelyFull)
	e.raw(`}`)
}

func (e *encoder) paneState(s *PaneState) {
	e.raw(`{"pane_id":`)
	e.str(s.PaneID)
	e.raw(`,"adapter_id":`)
	e.str(s.AdapterID)
	e.raw(`,"display_name":`)
	e.optStr(s.DisplayName)
	e.raw(`,"lifecycle":`)
	if s.Lifecycle.Phase == PhaseExited {
		e.raw(`{"exited":`)
		e.int(int64(s.Lifecycle.ExitCode))
		e.raw(`}`)
	} else {
		e.str(string(s.Lifecycle.Phase))
	}
	e.raw(`,"pid":`)
	if s.PID == nil {
		e.raw("null")
	} else {
		e.uint(uint64(*s.PID))
	}
	e.raw(`,"exit_code":`)
	e.optInt(s.ExitCode)
	e.raw(`,"working_dir":`)
	e.str(s.WorkingDir)
	e.raw(`,"size":`)
	e.size(s.Size)
	e.raw(`,"scrollback":{"total_bytes":`)
	e.uint(s.Scrollback.TotalBytes)
	e.raw(`,"first_abs_line":`)
	e.uint(s.Scrollback.FirstAbsLine)
	e.raw(`,"last_abs_line":`)
	e.uint(s.Scrollback.LastAbsLine)
	e.raw(`},"created_at":`)
	e.int(s.CreatedAt)
	e.raw(`}`)
}

func (e *encoder) optInt(n *int32) {
	if n == nil {
		e.raw("null")
		return
	}
	e.int(int64(*n))
}

func (e *encoder) themes(ts []Theme) {
	e.raw(`[`)
	for i := range ts {
		if i > 0 {
			e.comma()
		}
		e.raw(`{`)
		for j, f := range themeFields(&ts[i]) {
			if j > 0 {
				e.comma()
			}
			e.key(f.name)
			e.str(*f.val)
		}
		e.raw(`}`)
	}
	e.raw(`]`)
}

type themeField struct {
	name string
	val  *string
}

// themeFields lists a theme's fields in wire order.
func themeFields(t *Theme) []themeField {
	return []themeField{
		{"id", &t.ID}, {"name", &t.Name}, {"appearance", &t.Appearance},
		{"background", &t.Background}, {"foreground", &t.Foreground}, {"cursor", &t.Cursor},
		{"selection_background", &t.SelectionBackground},
		{"black", &t.Black}, {"red", &t.Red}, {"green", &t.Green}, {"yellow", &t.Yellow},
		{"blue", &t.Blue}, {"magenta", &t.Magenta}, {"cyan", &t.Cyan}, {"white", &t.White},
		{"bright_black", &t.BrightBlack}, {"bright_red", &t.BrightRed},
		{"bright_green", &t.BrightGreen}, {"bright_yellow", &t.BrightYellow},
		{"bright_blue", &t.BrightBlue}, {"bright_magenta", &t.BrightMagenta},
		{"bright_cyan", &t.BrightCyan}, {"bright_white", &t.BrightWhite},
	}
}

func (e *encoder) event(ev Event) error {
	switch ev := ev.(type) {
	case *PaneOutput:
		e.raw(`{"PaneOutput":{"pane_id":`)
		e.str(ev.PaneID)
		e.raw(`,"seq":`)
		e.uint(ev.Seq)
		e.raw(`,"data":`)
		e.b64(ev.Data)
		e.raw(`}}`)
	case *PaneExited:
		e.raw(`{"PaneExited":{"pane_id":`)
		e.str(ev.PaneID)
		e.raw(`,"exit_code":`)
		e.optInt(ev.ExitCode)
		e.raw(`}}`)
	case *ThemeChanged:
		e.raw(`{"ThemeChanged":{"id":`)
		e.str(ev.ID)
		e.raw(`}}`)
	default:
		return fmt.Errorf("encode event: unknown event type %T", ev)
	}
	return nil
}
