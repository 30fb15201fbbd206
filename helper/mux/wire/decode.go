package wire

import (
	"encoding/base64"
	"math"
	"strconv"
	"strings"
)

// DecodeFrame reads one frame body. It rejects exactly what a Conmux v1 peer rejects: unknown
// variants, missing fields, wrong types, out-of-range integers, bad base64, duplicate fields, and
// unknown fields where the protocol denies them (Hello, HelloAck and the struct-shaped ops, so a
// Send carrying "source" fails).
func DecodeFrame(body []byte) (Frame, error) {
	v, err := parseJSON(body)
	if err != nil {
		return nil, err
	}
	name, content, err := variant(v, "WireFrame")
	if err != nil {
		return nil, err
	}
	switch name {
	case "Hello":
		h := &Hello{}
		err := decodeStruct(content, "struct variant WireFrame::Hello", true,
			field{name: "protocol_version", set: func(v *jsonValue) (err error) { h.ProtocolVersion, err = asU32(v); return }},
			field{name: "client_kind", set: func(v *jsonValue) (err error) { h.ClientKind, err = asString(v); return }},
		)
		return h, err
	case "HelloAck":
		h := &HelloAck{}
		err := decodeStruct(content, "struct variant WireFrame::HelloAck", true,
			field{name: "protocol_version", set: func(v *jsonValue) (err error) { h.ProtocolVersion, err = asU32(v); return }},
			field{name: "daemon_version", set: func(v *jsonValue) (err error) { h.DaemonVersion, err = asString(v); return }},
		)
		return h, err
	case "Request":
		if content == nil {
			return nil, decodeErrorf("invalid type: unit variant, expected newtype variant")
		}
		return decodeRequest(content)
	case "Reply":
		if content == nil {
			return nil, decodeErrorf("invalid type: unit variant, expected newtype variant")
		}
		return decodeReply(content)
	case "Notify":
		if content == nil {
			return nil, decodeErrorf("invalid type: unit variant, expected newtype variant")
		}
		ev, err := decodeEvent(content)
		if err != nil {
			return nil, err
		}
		return &Notify{Event: ev}, nil
	}
	return nil, unknownVariant(name, "Hello", "HelloAck", "Request", "Reply", "Notify")
}

// DecodeOp reads one operation alone, the "op" of a Request.
func DecodeOp(data []byte) (Op, error) {
	v, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	return decodeOp(v)
}

func decodeRequest(v *jsonValue) (*Request, error) {
	r := &Request{}
	err := decodeStruct(v, "struct MuxRequest", false,
		field{name: "correlation_id", set: func(v *jsonValue) (err error) { r.CorrelationID, err = asU64(v); return }},
		field{name: "op", set: func(v *jsonValue) (err error) { r.Op, err = decodeOp(v); return }},
	)
	return r, err
}

func paneField(p *string) field {
	return field{name: "pane_id", set: func(v *jsonValue) (err error) { *p, err = asString(v); return }}
}

func decodeOp(v *jsonValue) (Op, error) {
	name, content, err := variant(v, "MuxOp")
	if err != nil {
		return nil, err
	}
	what := "struct variant MuxOp::" + name
	switch name {
	case "Spawn", "Respawn":
		if content == nil {
			return nil, decodeErrorf("invalid type: unit variant, expected newtype variant")
		}
		var req SpawnRequest
		if err := decodeSpawnRequest(content, &req); err != nil {
			return nil, err
		}
		if name == "Spawn" {
			return &OpSpawn{Request: req}, nil
		}
		return &OpRespawn{Request: req}, nil
	case "Send":
		op := &OpSend{}
		return op, decodeStruct(content, what, true, paneField(&op.PaneID),
			field{name: "data", set: func(v *jsonValue) (err error) { op.Data, err = asBase64(v); return }})
	case "Capture":
		if content == nil {
			return nil, decodeErrorf("invalid type: unit variant, expected newtype variant")
		}
		op := &OpCapture{}
		r := &op.Request
		return op, decodeStruct(content, "struct CaptureRequest", false, paneField(&r.PaneID),
			field{name: "range", set: func(v *jsonValue) (err error) { r.Range, err = decodeRange(v); return }},
			field{name: "ansi", set: func(v *jsonValue) (err error) { r.Ansi, err = asBool(v); return }})
	case "Resize":
		op := &OpResize{}
		return op, decodeStruct(content, what, true, paneField(&op.PaneID),
			field{name: "size", set: func(v *jsonValue) error { return decodeSize(v, &op.Size) }})
	case "KillTree":
		op := &OpKillTree{}
		return op, decodeStruct(content, what, true, paneField(&op.PaneID))
	case "Subscribe":
		op := &OpSubscribe{}
		return op, decodeStruct(content, what, true, paneField(&op.PaneID))
	case "Unsubscribe":
		op := &OpUnsubscribe{}
		return op, decodeStruct(content, what, true, paneField(&op.PaneID))
	case "Attach":
		op := &OpAttach{}
		return op, decodeStruct(content, what, true, paneField(&op.PaneID))
	case "SetTheme":
		op := &OpSetTheme{}
		return op, decodeStruct(content, what, true,
			field{name: "id", set: func(v *jsonValue) (err error) { op.ID, err = asString(v); return }})
	case "PinExecutable":
		op := &OpPinExecutable{}
		return op, decodeStruct(content, what, true,
			field{name: "path", set: func(v *jsonValue) (err error) { op.Path, err = asString(v); return }})
	case "UnpinExecutable":
		op := &OpUnpinExecutable{}
		return op, decodeStruct(content, what, true,
			field{name: "path", set: func(v *jsonValue) (err error) { op.Path, err = asString(v); return }})
	case "ListPanes":
		return &OpListPanes{}, unit(content)
	case "ListThemes":
		return &OpListThemes{}, unit(content)
	case "KillServer":
		return &OpKillServer{}, unit(content)
	}
	return nil, unknownVariant(name, "Spawn", "Send", "Capture", "Resize", "KillTree", "ListPanes", "Respawn",
		"Subscribe", "Unsubscribe", "Attach", "ListThemes", "SetTheme", "KillServer", "PinExecutable", "UnpinExecutable")
}

func decodeSpawnRequest(v *jsonValue, r *SpawnRequest) error {
	return decodeStruct(v, "struct SpawnRequest", false, paneField(&r.PaneID),
		field{name: "command", set: func(v *jsonValue) error { return decodeCommand(v, &r.Command) }},
		field{name: "size", set: func(v *jsonValue) error { return decodeSize(v, &r.Size) }},
		field{name: "adapter_id", set: func(v *jsonValue) (err error) { r.AdapterID, err = asString(v); return }},
		field{name: "display_name", optional: true, set: func(v *jsonValue) (err error) { r.DisplayName, err = asOptString(v); return }},
		field{name: "created_at", set: func(v *jsonValue) (err error) { r.CreatedAt, err = asI64(v); return }},
	)
}

func decodeCommand(v *jsonValue, c *CommandSpec) error {
	return decodeStruct(v, "struct CommandSpec", false,
		field{name: "program", set: func(v *jsonValue) (err error) { c.Program, err = asString(v); return }},
		field{name: "args", set: func(v *jsonValue) error {
			if v.kind != jsonArray {
				return invalidType(v, "a sequence")
			}
			c.Args = make([]string, 0, len(v.arr))
			for _, el := range v.arr {
				s, err := asString(el)
				if err != nil {
					return err
				}
				c.Args = append(c.Args, s)
			}
			return nil
		}},
		field{name: "cwd", optional: true, set: func(v *jsonValue) (err error) { c.Cwd, err = asOptString(v); return }},
		field{name: "env", set: func(v *jsonValue) error {
			if v.kind != jsonArray {
				return invalidType(v, "a sequence")
			}
			c.Env = make([][2]string, 0, len(v.arr))
			for _, el := range v.arr {
				if el.kind != jsonArray {
					return invalidType(el, "a tuple of size 2")
				}
				if len(el.arr) != 2 {
					return decodeErrorf("invalid length %d, expected a tuple of size 2", len(el.arr))
				}
				k, err := asString(el.arr[0])
				if err != nil {
					return err
				}
				val, err := asString(el.arr[1])
				if err != nil {
					return err
				}
				c.Env = append(c.Env, [2]string{k, val})
			}
			return nil
		}},
	)
}

func decodeSize(v *jsonValue, s *PaneSize) error {
	return decodeStruct(v, "struct PaneSize", false,
		field{name: "rows", set: func(v *jsonValue) (err error) { s.Rows, err = asU16(v); return }},
		field{name: "cols", set: func(v *jsonValue) (err error) { s.Cols, err = asU16(v); return }},
	)
}

func decodeRange(v *jsonValue) (CaptureRange, error) {
	var r CaptureRange
	name, content, err := variant(v, "CaptureRange")
	if err != nil {
		return r, err
	}
	switch name {
	case "All":
		return CaptureRange{Kind: RangeAll}, unit(content)
	case "LastBytes":
		if content == nil {
			return r, decodeErrorf("invalid type: unit variant, expected newtype variant")
		}
		n, err := asU64(content)
		return CaptureRange{Kind: RangeLastBytes, LastBytes: n}, err
	case "LineRange":
		r.Kind = RangeLineRange
		return r, decodeStruct(content, "struct variant CaptureRange::LineRange", false,
			field{name: "start_abs", set: func(v *jsonValue) (err error) { r.StartAbs, err = asU64(v); return }},
			field{name: "end_abs", set: func(v *jsonValue) (err error) { r.EndAbs, err = asU64(v); return }},
		)
	}
	return r, unknownVariant(name, "All", "LastBytes", "LineRange")
}

func decodeReply(v *jsonValue) (*Reply, error) {
	name, content, err := variant(v, "MuxReply")
	if err != nil {
		return nil, err
	}
	r := &Reply{}
	cid := field{name: "correlation_id", set: func(v *jsonValue) (err error) { r.CorrelationID, err = asU64(v); return }}
	switch name {
	case "Ok":
		return r, decodeStruct(content, "struct variant MuxReply::Ok", false, cid,
			field{name: "payload", set: func(v *jsonValue) (err error) { r.Payload, err = decodePayload(v); return }})
	case "Err":
		return r, decodeStruct(content, "struct variant MuxReply::Err", false, cid,
			field{name: "error", set: func(v *jsonValue) (err error) { r.Error, err = decodeError(v); return }})
	}
	return nil, unknownVariant(name, "Ok", "Err")
}

func decodeError(v *jsonValue) (*Error, error) {
	name, content, err := variant(v, "ConmuxError")
	if err != nil {
		return nil, err
	}
	names, ok := errorFields[ErrorKind(name)]
	if !ok {
		all := make([]string, 0, len(errorFields))
		for _, k := range errorKinds {
			all = append(all, string(k))
		}
		return nil, unknownVariant(name, all...)
	}
	e := &Error{Kind: ErrorKind(name)}
	fields := make([]field, 0, len(names))
	for _, n := range names {
		p := e.field(n)
		fields = append(fields, field{name: n, set: func(v *jsonValue) (err error) { *p, err = asString(v); return }})
	}
	return e, decodeStruct(content, "struct variant ConmuxError::"+name, false, fields...)
}

var errorKinds = []ErrorKind{ErrPaneNotFound, ErrSpawnFailed, ErrNonAbsoluteProgram, ErrUntrustedProgram, ErrPtyError,
	ErrSupervisorError, ErrInjectionRejected, ErrRuntimeError, ErrSerializationError, ErrUnsupported, ErrBusy}

func decodePayload(v *jsonValue) (Payload, error) {
	name, content, err := variant(v, "MuxPayload")
	if err != nil {
		return nil, err
	}
	for _, a := range acks {
		if name == string(a) {
			return a, unit(content)
		}
	}
	if content == nil {
		switch name {
		case "Spawned", "Captured", "Panes", "Themes", "AttachSnapshot":
			return nil, decodeErrorf("invalid type: unit variant, expected a variant with content")
		}
	}
	switch name {
	case "Spawned":
		s, err := asString(content)
		return &Spawned{PaneID: s}, err
	case "Captured":
		c := &Captured{}
		return c, decodeCaptureResult(content, &c.Result)
	case "Panes":
		if content.kind != jsonArray {
			return nil, invalidType(content, "a sequence")
		}
		p := &Panes{Panes: make([]PaneState, len(content.arr))}
		for i, el := range content.arr {
			if err := decodePaneState(el, &p.Panes[i]); err != nil {
				return nil, err
			}
		}
		return p, nil
	case "Themes":
		ts, err := decodeThemes(content)
		return &Themes{Themes: ts}, err
	case "AttachSnapshot":
		s := &AttachSnapshot{}
		return s, decodeStruct(content, "struct variant MuxPayload::AttachSnapshot", false,
			field{name: "mode_preamble_b64", set: func(v *jsonValue) (err error) { s.ModePreamble, err = asBase64(v); return }},
			field{name: "history_b64", set: func(v *jsonValue) (err error) { s.History, err = asBase64(v); return }},
			field{name: "last_seq", set: func(v *jsonValue) (err error) { s.LastSeq, err = asU64(v); return }},
			field{name: "pane_state", set: func(v *jsonValue) error { return decodePaneState(v, &s.PaneState) }},
		)
	}
	all := []string{"Spawned", "Captured", "Panes", "Themes", "AttachSnapshot"}
	for _, a := range acks {
		all = append(all, string(a))
	}
	return nil, unknownVariant(name, all...)
}

func decodeCaptureResult(v *jsonValue, r *CaptureResult) error {
	return decodeStruct(v, "struct CaptureResult", false,
		field{name: "data_base64", set: func(v *jsonValue) (err error) { r.Data, err = asBase64(v); return }},
		field{name: "first_abs_line", set: func(v *jsonValue) (err error) { r.FirstAbsLine, err = asU64(v); return }},
		field{name: "last_abs_line", set: func(v *jsonValue) (err error) { r.LastAbsLine, err = asU64(v); return }},
		field{name: "truncated", set: func(v *jsonValue) (err error) { r.Truncated, err = asBool(v); return }},
		field{name: "effectively_full", set: func(v *jsonValue) (err error) { r.EffectivelyFull, err = asBool(v); return }},
	)
}

func decodePaneState(v *jsonValue, s *PaneState) error {
	return decodeStruct(v, "struct PaneState", false, paneField(&s.PaneID),
		field{name: "adapter_id", set: func(v *jsonValue) (err error) { s.AdapterID, err = asString(v); return }},
		field{name: "display_name", optional: true, set: func(v *jsonValue) (err error) { s.DisplayName, err = asOptString(v); return }},
		field{name: "lifecycle", set: func(v *jsonValue) (err error) { s.Lifecycle, err = decodeLifecycle(v); return }},
		field{name: "pid", optional: true, set: func(v *jsonValue) error {
			if v.kind == jsonNull {
				return nil
			}
			n, err := asU32(v)
			s.PID = &n
			return err
		}},
		field{name: "exit_code", optional: true, set: func(v *jsonValue) (err error) { s.ExitCode, err = asOptI32(v); return }},
		field{name: "working_dir", set: func(v *jsonValue) (err error) { s.WorkingDir, err = asString(v); return }},
		field{name: "size", set: func(v *jsonValue) error { return decodeSize(v, &s.Size) }},
		field{name: "scrollback", set: func(v *jsonValue) error {
			b := &s.Scrollback
			return decodeStruct(v, "struct ScrollbackInfo", false,
				field{name: "total_bytes", set: func(v *jsonValue) (err error) { b.TotalBytes, err = asU64(v); return }},
				field{name: "first_abs_line", set: func(v *jsonValue) (err error) { b.FirstAbsLine, err = asU64(v); return }},
				field{name: "last_abs_line", set: func(v *jsonValue) (err error) { b.LastAbsLine, err = asU64(v); return }},
			)
		}},
		field{name: "created_at", set: func(v *jsonValue) (err error) { s.CreatedAt, err = asI64(v); return }},
	)
}

func decodeLifecycle(v *jsonValue) (Lifecycle, error) {
	name, content, err := variant(v, "PaneLifecycle")
	if err != nil {
		return Lifecycle{}, err
	}
	switch Phase(name) {
	case PhaseSpawning, PhaseRunning, PhaseZombie:
		return Lifecycle{Phase: Phase(name)}, unit(content)
	case PhaseExited:
		if content == nil {
			return Lifecycle{}, decodeErrorf("invalid type: unit variant, expected newtype variant")
		}
		n, err := asI32(content)
		return Lifecycle{Phase: PhaseExited, ExitCode: n}, err
	}
	return Lifecycle{}, unknownVariant(name, "spawning", "running", "exited", "zombie")
}

func decodeThemes(v *jsonValue) ([]Theme, error) {
	if v.kind != jsonArray {
		return nil, invalidType(v, "a sequence")
	}
	ts := make([]Theme, len(v.arr))
	for i, el := range v.arr {
		var fields []field
		for _, f := range themeFields(&ts[i]) {
			p := f.val
			fields = append(fields, field{name: f.name, set: func(v *jsonValue) (err error) { *p, err = asString(v); return }})
		}
		if err := decodeStruct(el, "struct TerminalTheme", false, fields...); err != nil {
			return nil, err
		}
	}
	return ts, nil
}

func decodeEvent(v *jsonValue) (Event, error) {
	name, content, err := variant(v, "MuxNotify")
	if err != nil {
		return nil, err
	}
	switch name {
	case "PaneOutput":
		e := &PaneOutput{}
		return e, decodeStruct(content, "struct variant MuxNotify::PaneOutput", false, paneField(&e.PaneID),
			field{name: "seq", set: func(v *jsonValue) (err error) { e.Seq, err = asU64(v); return }},
			field{name: "data", set: func(v *jsonValue) (err error) { e.Data, err = asBase64(v); return }})
	case "PaneExited":
		e := &PaneExited{}
		return e, decodeStruct(content, "struct variant MuxNotify::PaneExited", false, paneField(&e.PaneID),
			field{name: "exit_code", optional: true, set: func(v *jsonValue) (err error) { e.ExitCode, err = asOptI32(v); return }})
	case "ThemeChanged":
		e := &ThemeChanged{}
		return e, decodeStruct(content, "struct variant MuxNotify::ThemeChanged", false,
			field{name: "id", set: func(v *jsonValue) (err error) { e.ID, err = asString(v); return }})
	}
	return nil, unknownVariant(name, "PaneOutput", "PaneExited", "ThemeChanged")
}

// --- shape helpers ---

// variant splits an externally tagged enum: a bare string is a unit variant (content nil), an
// object must hold exactly one key.
func variant(v *jsonValue, enum string) (name string, content *jsonValue, err error) {
	switch v.kind {
	case jsonString:
		return v.text(), nil, nil
	case jsonObject:
		if len(v.obj) != 1 {
			if len(v.obj) == 0 {
				return "", nil, decodeErrorf("expected an enum %s: an object with one key, got an empty object", enum)
			}
			return "", nil, decodeErrorf("expected an enum %s: an object with one key, got %d keys", enum, len(v.obj))
		}
		return v.obj[0].key, v.obj[0].val, nil
	}
	return "", nil, invalidType(v, "enum "+enum)
}

// unit accepts the content of a unit variant: none, or null.
func unit(content *jsonValue) error {
	if content == nil || content.kind == jsonNull {
		return nil
	}
	return invalidType(content, "unit")
}

func unknownVariant(name string, expected ...string) error {
	return decodeErrorf("unknown variant `%s`, expected one of %s", name, quoteList(expected))
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}

func invalidType(v *jsonValue, expected string) error {
	switch v.kind {
	case jsonString:
		return decodeErrorf("invalid type: string %q, expected %s", v.text(), expected)
	case jsonNumber:
		return decodeErrorf("invalid type: number %s, expected %s", v.s, expected)
	}
	return decodeErrorf("invalid type: %s, expected %s", v.kind, expected)
}

type field struct {
	name     string
	optional bool // an Option: missing reads as None
	set      func(v *jsonValue) error
}

// decodeStruct fills a struct from an object: every non-optional field must be present once,
// unknown keys are rejected when denyUnknown is set and skipped otherwise.
func decodeStruct(v *jsonValue, what string, denyUnknown bool, fields ...field) error {
	if v == nil {
		return decodeErrorf("invalid type: unit variant, expected %s", what)
	}
	if v.kind != jsonObject {
		return invalidType(v, what)
	}
	seen := make([]bool, len(fields))
	for _, m := range v.obj {
		i := fieldIndex(fields, m.key)
		if i < 0 {
			if denyUnknown {
				names := make([]string, len(fields))
				for j, f := range fields {
					names[j] = f.name
				}
				return decodeErrorf("unknown field `%s` in %s, expected %s", m.key, what, quoteList(names))
			}
			continue
		}
		if seen[i] {
			return decodeErrorf("duplicate field `%s` in %s", m.key, what)
		}
		seen[i] = true
		if err := fields[i].set(m.val); err != nil {
			return err
		}
	}
	for i, f := range fields {
		if !seen[i] && !f.optional {
			return decodeErrorf("missing field `%s` in %s", f.name, what)
		}
	}
	return nil
}

func fieldIndex(fields []field, key string) int {
	for i, f := range fields {
		if f.name == key {
			return i
		}
	}
	return -1
}

// --- scalar helpers ---

func asString(v *jsonValue) (string, error) {
	if v.kind != jsonString {
		return "", invalidType(v, "a string")
	}
	return v.text(), nil
}

func asOptString(v *jsonValue) (*string, error) {
	if v.kind == jsonNull {
		return nil, nil
	}
	s, err := asString(v)
	return &s, err
}

func asBool(v *jsonValue) (bool, error) {
	if v.kind != jsonBool {
		return false, invalidType(v, "a boolean")
	}
	return v.b, nil
}

func isFloat(lit string) bool { return strings.ContainsAny(lit, ".eE") || lit == "-0" }

func asUint(v *jsonValue, max uint64, typ string) (uint64, error) {
	if v.kind != jsonNumber {
		return 0, invalidType(v, typ)
	}
	if isFloat(v.s) {
		return 0, decodeErrorf("invalid type: floating point `%s`, expected %s", v.s, typ)
	}
	if strings.HasPrefix(v.s, "-") {
		return 0, decodeErrorf("invalid value: integer `%s`, expected %s", v.s, typ)
	}
	n, err := strconv.ParseUint(v.s, 10, 64)
	if err != nil || n > max {
		return 0, decodeErrorf("invalid value: integer `%s`, expected %s", v.s, typ)
	}
	return n, nil
}

func asInt(v *jsonValue, min, max int64, typ string) (int64, error) {
	if v.kind != jsonNumber {
		return 0, invalidType(v, typ)
	}
	if isFloat(v.s) {
		return 0, decodeErrorf("invalid type: floating point `%s`, expected %s", v.s, typ)
	}
	n, err := strconv.ParseInt(v.s, 10, 64)
	if err != nil || n < min || n > max {
		return 0, decodeErrorf("invalid value: integer `%s`, expected %s", v.s, typ)
	}
	return n, nil
}

func asU16(v *jsonValue) (uint16, error) {
	n, err := asUint(v, math.MaxUint16, "u16")
	return uint16(n), err
}

func asU32(v *jsonValue) (uint32, error) {
	n, err := asUint(v, math.MaxUint32, "u32")
	return uint32(n), err
}

func asU64(v *jsonValue) (uint64, error) { return asUint(v, math.MaxUint64, "u64") }

func asI32(v *jsonValue) (int32, error) {
	n, err := asInt(v, math.MinInt32, math.MaxInt32, "i32")
	return int32(n), err
}

func asOptI32(v *jsonValue) (*int32, error) {
	if v.kind == jsonNull {
		return nil, nil
	}
	n, err := asI32(v)
	return &n, err
}

func asI64(v *jsonValue) (int64, error) { return asInt(v, math.MinInt64, math.MaxInt64, "i64") }

// strictBase64 is standard base64 with canonical padding and no trailing bits.
var strictBase64 = base64.StdEncoding.Strict()

// asBase64 reads standard base64 with canonical padding; line breaks, which Go would skip, are
// rejected as a Conmux v1 peer rejects them.
func asBase64(v *jsonValue) ([]byte, error) {
	if v.kind != jsonString {
		return nil, invalidType(v, "a string")
	}
	// A string without escapes holds no control character (the parser refused one), so only an
	// escaped string can carry a line break.
	data := v.raw
	if !v.isRaw {
		if strings.ContainsAny(v.s, "\r\n") {
			return nil, decodeErrorf("invalid base64: line break in the data")
		}
		data = []byte(v.s)
	}
	b := make([]byte, strictBase64.DecodedLen(len(data)))
	n, err := strictBase64.Decode(b, data)
	if err != nil {
		return nil, decodeErrorf("invalid base64: %v", err)
	}
	return b[:n], nil
}
