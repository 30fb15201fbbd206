package wire

// ProtocolVersion is the only version this side speaks; a peer must send exactly this number.
const ProtocolVersion = 1

// DaemonVersion is what HelloAck reports: the version of the protocol implementation taw mirrors.
const DaemonVersion = "0.1.1"

// Frame is one message on a connection: *Hello, *HelloAck, *Request, *Reply or *Notify.
type Frame interface{ frameKind() string }

// Hello opens a connection (client to daemon, first frame only).
type Hello struct {
	ProtocolVersion uint32
	ClientKind      string // a free label; it decides nothing
}

// HelloAck answers a valid Hello (daemon to client).
type HelloAck struct {
	ProtocolVersion uint32
	DaemonVersion   string
}

// Request carries one operation (client to daemon).
type Request struct {
	CorrelationID uint64
	Op            Op
}

// Reply answers one Request (daemon to client): exactly one of Payload and Error is set.
type Reply struct {
	CorrelationID uint64
	Payload       Payload // on success
	Error         *Error  // on failure
}

// Notify carries an event the daemon pushes on its own (daemon to client).
type Notify struct {
	Event Event
}

func (*Hello) frameKind() string    { return "Hello" }
func (*HelloAck) frameKind() string { return "HelloAck" }
func (*Request) frameKind() string  { return "Request" }
func (*Reply) frameKind() string    { return "Reply" }
func (*Notify) frameKind() string   { return "Notify" }

// FrameKind names a frame's variant, as it appears on the wire.
func FrameKind(f Frame) string { return f.frameKind() }

// Op is one of the 15 operations.
type Op interface{ opName() string }

type (
	OpSpawn struct{ Request SpawnRequest }
	OpSend  struct {
		PaneID string
		Data   []byte
	}
	OpCapture struct{ Request CaptureRequest }
	OpResize  struct {
		PaneID string
		Size   PaneSize
	}
	OpKillTree        struct{ PaneID string }
	OpListPanes       struct{}
	OpRespawn         struct{ Request SpawnRequest }
	OpSubscribe       struct{ PaneID string }
	OpUnsubscribe     struct{ PaneID string }
	OpAttach          struct{ PaneID string }
	OpListThemes      struct{}
	OpSetTheme        struct{ ID string }
	OpKillServer      struct{}
	OpPinExecutable   struct{ Path string }
	OpUnpinExecutable struct{ Path string }
)

func (*OpSpawn) opName() string           { return "Spawn" }
func (*OpSend) opName() string            { return "Send" }
func (*OpCapture) opName() string         { return "Capture" }
func (*OpResize) opName() string          { return "Resize" }
func (*OpKillTree) opName() string        { return "KillTree" }
func (*OpListPanes) opName() string       { return "ListPanes" }
func (*OpRespawn) opName() string         { return "Respawn" }
func (*OpSubscribe) opName() string       { return "Subscribe" }
func (*OpUnsubscribe) opName() string     { return "Unsubscribe" }
func (*OpAttach) opName() string          { return "Attach" }
func (*OpListThemes) opName() string      { return "ListThemes" }
func (*OpSetTheme) opName() string        { return "SetTheme" }
func (*OpKillServer) opName() string      { return "KillServer" }
func (*OpPinExecutable) opName() string   { return "PinExecutable" }
func (*OpUnpinExecutable) opName() string { return "UnpinExecutable" }

// OpName names an operation's variant, as it appears on the wire.
func OpName(op Op) string { return op.opName() }

// SpawnRequest describes a pane to start.
type SpawnRequest struct {
	PaneID      string
	Command     CommandSpec
	Size        PaneSize
	AdapterID   string
	DisplayName *string
	CreatedAt   int64 // opaque to the daemon; unix milliseconds by convention
}

// CommandSpec is the program a pane runs. Env keeps its order: it is a list of pairs on the wire.
type CommandSpec struct {
	Program string
	Args    []string
	Cwd     *string
	Env     [][2]string
}

// PaneSize is a pane's size in character cells.
type PaneSize struct {
	Rows uint16
	Cols uint16
}

// CaptureRequest asks for part of a pane's raw output.
type CaptureRequest struct {
	PaneID string
	Range  CaptureRange
	Ansi   bool
}

// CaptureRange is one of: All, LastBytes(N) or LineRange{StartAbs, EndAbs} (end inclusive).
type CaptureRange struct {
	Kind      RangeKind
	LastBytes uint64
	StartAbs  uint64
	EndAbs    uint64
}

// RangeKind tells which CaptureRange variant is meant.
type RangeKind int

const (
	RangeAll RangeKind = iota
	RangeLastBytes
	RangeLineRange
)

// Payload is a successful reply's content.
type Payload interface{ payloadName() string }

// Ack is a payload with no fields, such as "Sent" or "Killed".
type Ack string

// The acknowledgements, spelled as on the wire.
const (
	AckSent                Ack = "Sent"
	AckResized             Ack = "Resized"
	AckKilled              Ack = "Killed"
	AckSubscribed          Ack = "Subscribed"
	AckUnsubscribed        Ack = "Unsubscribed"
	AckThemeSet            Ack = "ThemeSet"
	AckServerKillScheduled Ack = "ServerKillScheduled"
	AckPinned              Ack = "Pinned"
	AckUnpinned            Ack = "Unpinned"
)

var acks = []Ack{AckSent, AckResized, AckKilled, AckSubscribed, AckUnsubscribed, AckThemeSet, AckServerKillScheduled, AckPinned, AckUnpinned}

type (
	// Spawned answers Spawn and Respawn with the pane's id.
	Spawned struct{ PaneID string }
	// Captured answers Capture.
	Captured struct{ Result CaptureResult }
	// Panes answers ListPanes.
	Panes struct{ Panes []PaneState }
	// Themes answers ListThemes.
	Themes struct{ Themes []Theme }
	// AttachSnapshot answers Attach: replay the preamble, then the history, then every live
	// PaneOutput with Seq > LastSeq.
	AttachSnapshot struct {
		ModePreamble []byte
		History      []byte
		LastSeq      uint64
		PaneState    PaneState
	}
)

func (a Ack) payloadName() string           { return string(a) }
func (*Spawned) payloadName() string        { return "Spawned" }
func (*Captured) payloadName() string       { return "Captured" }
func (*Panes) payloadName() string          { return "Panes" }
func (*Themes) payloadName() string         { return "Themes" }
func (*AttachSnapshot) payloadName() string { return "AttachSnapshot" }

// PayloadName names a payload's variant, as it appears on the wire.
func PayloadName(p Payload) string { return p.payloadName() }

// CaptureResult is what Capture read. The line numbers describe the buffer's window, not the
// returned range.
type CaptureResult struct {
	Data            []byte
	FirstAbsLine    uint64
	LastAbsLine     uint64
	Truncated       bool
	EffectivelyFull bool
}

// PaneState describes one pane.
type PaneState struct {
	PaneID      string
	AdapterID   string
	DisplayName *string
	Lifecycle   Lifecycle
	PID         *uint32
	ExitCode    *int32
	WorkingDir  string
	Size        PaneSize
	Scrollback  ScrollbackInfo
	CreatedAt   int64
}

// Lifecycle is "spawning", "running", {"exited":N} or "zombie".
type Lifecycle struct {
	Phase    Phase
	ExitCode int32 // when Phase is PhaseExited
}

// Phase is a Lifecycle's variant.
type Phase string

const (
	PhaseSpawning Phase = "spawning"
	PhaseRunning  Phase = "running"
	PhaseExited   Phase = "exited"
	PhaseZombie   Phase = "zombie"
)

// ScrollbackInfo describes a pane's raw output buffer.
type ScrollbackInfo struct {
	TotalBytes   uint64
	FirstAbsLine uint64
	LastAbsLine  uint64
}

// Theme is a terminal colour theme; every colour is "#RRGGBB".
type Theme struct {
	ID, Name, Appearance                                  string
	Background, Foreground, Cursor, SelectionBackground   string
	Black, Red, Green, Yellow, Blue, Magenta, Cyan, White string
	BrightBlack, BrightRed, BrightGreen, BrightYellow     string
	BrightBlue, BrightMagenta, BrightCyan, BrightWhite    string
}

// Event is what a Notify carries.
type Event interface{ eventName() string }

type (
	// PaneOutput is one chunk of a pane's raw output; Seq grows by one per chunk.
	PaneOutput struct {
		PaneID string
		Seq    uint64
		Data   []byte
	}
	// PaneExited says a pane's process ended; ExitCode is nil when it is not known.
	PaneExited struct {
		PaneID   string
		ExitCode *int32
	}
	// ThemeChanged says a client set the theme.
	ThemeChanged struct{ ID string }
)

func (*PaneOutput) eventName() string   { return "PaneOutput" }
func (*PaneExited) eventName() string   { return "PaneExited" }
func (*ThemeChanged) eventName() string { return "ThemeChanged" }

// Error is a mechanism-level error. Kind picks the variant; each variant carries some of the
// fields (see errorFields).
type Error struct {
	Kind    ErrorKind
	PaneID  string
	Program string
	Reason  string
	Message string
}

// ErrorKind is an Error's variant, spelled as on the wire.
type ErrorKind string

const (
	ErrPaneNotFound       ErrorKind = "PaneNotFound"
	ErrSpawnFailed        ErrorKind = "SpawnFailed"
	ErrNonAbsoluteProgram ErrorKind = "NonAbsoluteProgram"
	ErrUntrustedProgram   ErrorKind = "UntrustedProgram"
	ErrPtyError           ErrorKind = "PtyError"
	ErrSupervisorError    ErrorKind = "SupervisorError"
	ErrInjectionRejected  ErrorKind = "InjectionRejected"
	ErrRuntimeError       ErrorKind = "RuntimeError"
	ErrSerializationError ErrorKind = "SerializationError"
	ErrUnsupported        ErrorKind = "Unsupported"
	ErrBusy               ErrorKind = "Busy"
)

// errorFields lists each variant's fields in wire order.
var errorFields = map[ErrorKind][]string{
	ErrPaneNotFound:       {"pane_id"},
	ErrSpawnFailed:        {"message"},
	ErrNonAbsoluteProgram: {"program"},
	ErrUntrustedProgram:   {"program", "reason"},
	ErrPtyError:           {"message"},
	ErrSupervisorError:    {"message"},
	ErrInjectionRejected:  {"reason"},
	ErrRuntimeError:       {"message"},
	ErrSerializationError: {"message"},
	ErrUnsupported:        {"message"},
	ErrBusy:               {"message"},
}

func (e *Error) Error() string {
	s := string(e.Kind)
	for _, f := range errorFields[e.Kind] {
		s += " " + f + "=" + *e.field(f)
	}
	return s
}

func (e *Error) field(name string) *string {
	switch name {
	case "pane_id":
		return &e.PaneID
	case "program":
		return &e.Program
	case "reason":
		return &e.Reason
	default:
		return &e.Message
	}
}
