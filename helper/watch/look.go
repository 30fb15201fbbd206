package watch

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/taw-tmux/taw/helper/detect"
	"github.com/taw-tmux/taw/helper/panestate"
	"github.com/taw-tmux/taw/helper/procinfo"
	"github.com/taw-tmux/taw/helper/prompt"
	"github.com/taw-tmux/taw/helper/report"
	"github.com/taw-tmux/taw/helper/shellquote"
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxconf"
	"github.com/taw-tmux/taw/helper/tmuxfmt"
)

// Defaults of the watcher's settings.
const (
	DefaultInterval = time.Second
	DefaultGrace    = 30 * time.Second
)

// WakeChannel is the tmux wait-for channel taw's hooks signal to make the watcher look at once.
const WakeChannel = "taw-wake"

// Config is what a watcher needs.
type Config struct {
	Client  *tmux.Client
	LockDir string
	Rules   *detect.Rules
	Now     func() time.Time
	// Interval, when set, overrides @agent-wizard-watch-interval.
	Interval time.Duration
	// Observers get every look, in this order. Only the server's own watcher has any, so a
	// debugging watcher beside it does not notify twice.
	Observers []Observer
	// Logf receives problems worth a line in the watcher's log; nil discards them.
	Logf func(format string, args ...any)
}

// Watcher looks at every pane of one server. It remembers, per pane, what it last found in front
// of the pane and on its screen, so a look costs one stat file per pane unless something moved.
type Watcher struct {
	cfg      Config
	nonce    string
	memo     map[string]*paneMemo
	prev     map[string]panestate.Pane // the previous look's panes, for transitions
	looks    int
	interval time.Duration
	grace    time.Duration
	logged   map[string]time.Time

	facts     []Facts    // Look's, kept for the next look's
	decisions []Decision // Look's, kept for the next look's
	marks     procinfo.MarkReader
	soon      time.Time          // when a screen's correction of a hook can be made, see NextLook
	busy      bool               // the last look found an agent at work, see NextLook
	lookTook  time.Duration      // the last look's own time (observers aside), see busyBudget
	exits     map[int]*exitWatch // by pid, see watchExits
	exitsWant map[int]bool       // the pids watchExits wants watched, kept between looks
	ended     chan int           // watched processes that ended, see watchExits
	endedNow  map[int]bool       // those taken for this look
}

// paneMemo is what the watcher keeps of one pane between looks.
type paneMemo struct {
	pid       int // the pane's process; a respawned pane starts over
	probed    bool
	probedNow bool          // the foreground group was read in this look
	front     procinfo.Mark // the group's leader at the last probe
	members   []int         // some of the group's other processes then, see watchExits
	atPrompt  bool
	agent     string
	why       string
	// While no agent is named: when the group was last read, the content then, and how many
	// probes changes of content brought since the foreground last changed.
	probedAt    time.Time
	probedPrint contentPrint
	reprobes    int

	fingerprint contentPrint // of the content at the last capture
	capturedSec int64        // unix seconds of the last capture
	classified  bool
	verdict     detect.Verdict
	hot         int      // looks to come whose first call captures this screen too
	lines       []string // the screen at the last capture

	// The screen last read for the dialog of a blocked agent with none on record, so an
	// unreadable one is read again only when it may have changed.
	dialogPrint contentPrint
	dialogSec   int64

	screen   screenEvidence // the screen contradicting a hook, see countScreen
	caughtUp string         // the report (@agent_updated) whose state the screen has shown since

	// The quit (panestate.OptQuit) last seen, and the process in front then: see quitting.
	quitAt    int64
	quitFront procinfo.Mark

	// setup: the last screen read blocked showed a start-up dialog (trust, sign-in): answering
	// it ends no turn.
	setup bool

	// blankSince: when the screen was first read blank since it last showed text, see keepOverBlank.
	blankSince time.Time

	// wrapperUntil: an agent's end left its wrapper alone in front, still reading as the agent's
	// launcher; until then the group is read again at every look, see probe.
	wrapperUntil time.Time
}

// ended says whether a process of the pane's foreground group that was watched has ended.
func (m *paneMemo) ended(pids map[int]bool) bool {
	if len(pids) == 0 {
		return false
	}
	if pids[m.front.PID] {
		return true
	}
	for _, pid := range m.members {
		if pids[pid] {
			return true
		}
	}
	return false
}

// New makes a watcher.
func New(cfg Config) *Watcher {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Watcher{
		cfg:      cfg,
		nonce:    newNonce(),
		memo:     map[string]*paneMemo{},
		interval: DefaultInterval,
		grace:    DefaultGrace,
		logged:   map[string]time.Time{},
	}
}

// Close lets go of what the watcher keeps open between looks.
func (w *Watcher) Close() { w.marks.Close() }

// Interval is how long the watcher waits between looks: the flag, else the setting as last read.
func (w *Watcher) Interval() time.Duration {
	if w.cfg.Interval > 0 {
		return w.cfg.Interval
	}
	return w.interval
}

// BusyShare is the part of the interval after which the next look comes while an agent is at
// work (working or blocked): the state it goes to next is the one a person waits for, and one
// that only its screen shows (an Esc, an error that ends a turn, an agent without hooks) then
// shows within a quarter of an interval, for more looks only while agents work.
const BusyShare = 4

// minBusyLook bounds how close together BusyShare brings looks: the shortest interval.
const minBusyLook = 100 * time.Millisecond

// busyBudget spaces the looks while agents work at least that many times a look's own time apart
// (with the tmux server's part): a server with many panes, whose looks cost more, is looked at
// less often than every quarter interval, and every half interval at worst.
const busyBudget = 50

// NextLook is how long after the look just made the next one is due: the interval (a share of it
// while an agent is at work, BusyShare), or sooner when a screen is on its way to correcting a
// hook, at the moment it can (correctionDue), so the truth shows within the correction's own
// wait rather than a whole interval later.
func (w *Watcher) NextLook(now time.Time) time.Duration {
	next := w.Interval()
	if w.busy {
		next = max(next/BusyShare, min(next, minBusyLook), min(next/2, w.lookTook*busyBudget))
	}
	if !w.soon.IsZero() {
		next = min(next, max(w.soon.Sub(now), minSpacing))
	}
	return next
}

// Stats counts what one look did, for the benchmark and the log.
type Stats struct {
	Panes, Probes, Captures, Writes, TmuxCalls int
}

// Look is one look at every pane: one tmux call for the panes, the clients and the screens that
// changed at the last look, one stat file per pane, the process tree only of panes whose
// foreground group changed, at most one more tmux call for the other screens that may have
// changed, and writes only where something changed. The observers get the
// result. An error is returned only when the first call fails (the server is gone, or tmux did
// not answer); a problem with one pane is logged and the others go on.
//
// It runs in named phases, each a method of its own with its own tests: list (the first call),
// probe (what runs in front of each pane), capture (the screens that may have changed), classify
// (the screen rules), decide (each pane's record, and the dialogs of blocked agents) and write.
func (w *Watcher) Look(ctx context.Context) (*Look, Stats, error) {
	began := time.Now()
	l, err := w.listPanes(ctx)
	if err != nil {
		return nil, l.st, err
	}
	w.probePanes(ctx, l)
	w.captureScreens(ctx, l)
	w.classifyScreens(l)
	w.decidePanes(ctx, l)
	panes := w.writePanes(ctx, l)
	w.busy = atWork(panes)

	look := &Look{Client: w.cfg.Client, Panes: panes, Now: l.now, readClients: w.readClients(ctx)}
	look.Transitions = w.transitions(panes, l.now)
	l.st.TmuxCalls += w.takeTurnEnds(ctx, panes)
	w.forget(panes)
	w.marks.Sweep()
	w.lookTook = time.Since(began)
	w.looks++
	for _, o := range w.cfg.Observers {
		w.observe(ctx, o, look)
	}
	return look, l.st, nil
}

// atWork says whether any pane shows an agent working or blocked.
func atWork(panes []panestate.Pane) bool {
	for _, p := range panes {
		if p.Agent() != "" && report.AtWork(p.State()) {
			return true
		}
	}
	return false
}

// readClients reads the attached clients, for a look that asks whether a pane is in view.
func (w *Watcher) readClients(ctx context.Context) func() []Client {
	return func() []Client {
		out, err := w.cfg.Client.Run(ctx, clientsCmd())
		if err != nil {
			w.logf("list clients: %v", err)
		}
		return parseClients(out)
	}
}

// lookPass is one look as it goes through the phases: what each phase found, by pane index.
type lookPass struct {
	data      lookData
	early     map[string][]string // the screens the first call captured
	now       time.Time
	facts     []Facts
	screens   map[string][]string // the screens this look read
	decisions []Decision
	due       []bool // the decision differs from the pane's record
	dialogs   map[string]*prompt.Prompt
	st        Stats
}

// listPanes is the look's first call: the panes with their options, the clients, the settings,
// and the screens that changed at the last look, which most likely changed again (an agent at
// work repaints all the time): they are captured in the same call, and dropped if they did not.
func (w *Watcher) listPanes(ctx context.Context) (*lookPass, error) {
	l := &lookPass{}
	hot := w.hotPanes()
	full := w.looks%fullEvery == 0
	out, err := w.cfg.Client.Run(ctx, append(lookCmds(w.nonce, full, full), captureCmds(w.nonce, hot)...)...)
	l.st.TmuxCalls++
	l.data = parseLook(out, w.nonce)
	if err != nil && !(l.data.complete && len(hot) > 0) {
		// Only a hot pane that closed in between may fail the call after the panes were listed.
		return l, err
	}
	l.early, _ = parseCaptures(out, w.nonce)
	l.now = w.cfg.Now()
	for _, row := range l.data.bad {
		w.logf("skip an unreadable pane row: %.80q", row)
	}
	if l.data.settings != nil {
		w.readSettings(l.data.settings)
	}
	l.st.Panes = len(l.data.panes)
	return l, nil
}

// probePanes finds what runs in front of each pane (probe), and reads whole, in one more call,
// the rows of the panes the first call gave only in brief that need more.
func (w *Watcher) probePanes(ctx context.Context, l *lookPass) {
	// facts and decisions live only in this look: their memory is the last look's, taken again.
	w.facts = resized(w.facts, len(l.data.panes))
	l.facts = w.facts
	w.endedNow = w.takeEnded()
	var brief []int // panes with an agent or taw's options whose rows lack the held fields
	for i, p := range l.data.panes {
		m := w.memo[p.ID]
		if m == nil || m.pid != p.PID {
			m = &paneMemo{pid: p.PID}
			w.memo[p.ID] = m
		}
		l.facts[i] = w.probe(p, m, l.now)
		l.st.Probes += boolInt(m.probedNow)
		if p.Brief() && (m.agent != "" || !panestate.HeldNothing(p.Options)) {
			brief = append(brief, i)
		}
	}
	if len(brief) > 0 || len(l.data.unmarked) > 0 {
		l.st.TmuxCalls += w.catchUp(ctx, l.data.panes, brief, l.data.unmarked)
	}
}

// captureScreens reads the screens of the agents' panes that may have changed since they were
// last classified: from the first call where it captured them, else in one more call.
func (w *Watcher) captureScreens(ctx context.Context, l *lookPass) {
	l.screens = map[string][]string{}
	var toCapture []string
	for _, p := range l.data.panes {
		m := w.memo[p.ID]
		if m.hot > 0 {
			m.hot--
		}
		if m.agent == "" || !w.needsCapture(p, m) {
			continue
		}
		m.hot = hotLooks
		if lines := l.early[p.ID]; len(lines) > 0 {
			l.screens[p.ID] = lines
		} else {
			toCapture = append(toCapture, p.ID)
		}
	}
	if len(toCapture) > 0 {
		more, calls := w.capture(ctx, toCapture)
		l.st.TmuxCalls += calls
		for id, lines := range more {
			l.screens[id] = lines
		}
	}
	l.st.Captures = len(l.screens)
}

// classifyScreens runs the agents' screen rules on the screens this look read; a screen not
// read keeps its last verdict, and the screen's idle evidence is counted for every pane.
func (w *Watcher) classifyScreens(l *lookPass) {
	for i, p := range l.data.panes {
		lines, ok := l.screens[p.ID]
		if !ok {
			continue
		}
		m := w.memo[p.ID]
		if m.keepOverBlank(lines, l.now) {
			continue
		}
		m.verdict = w.cfg.Rules.Classify(m.agent, detect.Screen{Lines: lines, Title: p.Title})
		m.classified = true
		m.fingerprint = fingerprint(p)
		m.capturedSec = l.now.Unix()
		m.lines = lines
		if m.verdict.State == report.StateBlocked {
			m.setup = m.verdict.Setup
		}
		l.facts[i].Classified, l.facts[i].State = true, m.verdict.State
	}
	for i, p := range l.data.panes {
		if m := w.memo[p.ID]; m.agent != "" && m.classified && !l.facts[i].Classified {
			// The screen has not changed since it was last read: its verdict stands.
			l.facts[i].Classified, l.facts[i].State = true, m.verdict.State
		}
	}
	w.soon = time.Time{}
	for i, p := range l.data.panes {
		countScreen(p, w.memo[p.ID], &l.facts[i], l.now)
		if due, ok := correctionDue(w.memo[p.ID], l.facts[i], l.now); ok && (w.soon.IsZero() || due.Before(w.soon)) {
			w.soon = due
		}
		if m := w.memo[p.ID]; m.awaitsWrapper(l.now) && (w.soon.IsZero() || l.now.Add(wrapperRecheck).Before(w.soon)) {
			w.soon = l.now.Add(wrapperRecheck)
		}
	}
}

// wrapperFor bounds how long a wrapper left alone in front by its agent's end is read again at
// every look, wrapperRecheck apart; a wrapper that stays as it is (it waits on something else)
// keeps the agent named, as it did before the end.
const (
	wrapperFor     = 2 * time.Second
	wrapperRecheck = 100 * time.Millisecond
)

// awaitsWrapper says whether the pane's group is to be read again: see wrapperUntil.
func (m *paneMemo) awaitsWrapper(now time.Time) bool {
	return m.agent != "" && now.Before(m.wrapperUntil)
}

// blankFor is how long a blank screen leaves the last verdict standing: an agent that redraws
// clears its screen first, and a look between the clear and the frame reads nothing.
const blankFor = time.Second

// keepOverBlank says whether a screen with no text should leave the last verdict standing: a
// blocked agent caught mid-redraw is not idle. A screen blank for blankFor is read as it is.
func (m *paneMemo) keepOverBlank(lines []string, now time.Time) bool {
	if !blank(lines) {
		m.blankSince = time.Time{}
		return false
	}
	if !m.classified || m.verdict.State == "" {
		return false
	}
	if m.blankSince.IsZero() {
		m.blankSince = now
	}
	return now.Sub(m.blankSince) < blankFor
}

// blank says whether a screen shows no text at all.
func blank(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}

// decidePanes decides each pane's record from its facts, and reads the dialogs of the agents the
// decision leaves blocked with none on record, a hook's words only, or a screen that changed:
// the record follows the screen while the agent is blocked.
func (w *Watcher) decidePanes(ctx context.Context, l *lookPass) {
	nowMs := l.now.UnixMilli()
	w.decisions = resized(w.decisions, len(l.data.panes))
	l.decisions = w.decisions
	l.due = make([]bool, len(l.data.panes))
	var blocked []int
	for i, p := range l.data.panes {
		var asks bool
		l.decisions[i], l.due[i], asks = w.wants(p, l.facts[i], nowMs)
		if _, captured := l.screens[p.ID]; asks || (captured && blockedAgent(l.decisions[i].Record)) {
			blocked = append(blocked, i)
		}
	}
	var calls int
	l.dialogs, calls = w.dialogs(ctx, l.data.panes, blocked, l.screens, l.now)
	l.st.TmuxCalls += calls
}

// writePanes writes the decisions and dialogs that change a pane, and is the panes as the look
// leaves them: the due panes with no dialog to record go guarded, several to a tmux call, the
// rest one by one.
func (w *Watcher) writePanes(ctx context.Context, l *lookPass) []panestate.Pane {
	nowMs := l.now.UnixMilli()
	panes := make([]panestate.Pane, len(l.data.panes))
	var slow, batched []int // due panes written one by one, and those written guarded together
	for i, p := range l.data.panes {
		panes[i] = p
		q := l.dialogs[p.ID]
		switch {
		case !l.due[i] && q == nil:
		case q == nil:
			batched = append(batched, i)
		default:
			slow = append(slow, i)
		}
	}
	slow = append(slow, w.writeBatched(ctx, panes, batched, l.decisions, nowMs, &l.st)...)
	for _, i := range slow {
		p := l.data.panes[i]
		written, calls, err := w.write(ctx, p, l.facts[i], l.decisions[i], l.dialogs[p.ID], nowMs)
		l.st.TmuxCalls += calls
		if err != nil {
			w.logf("write pane %s: %v", p.ID, err)
			continue
		}
		if written != nil {
			panes[i] = *written
			l.st.Writes++
		}
	}
	return panes
}

// catchUp is one call for the panes a look found short of the mark: it reads whole the rows of
// the panes at idx whose look gave only their brief fields (panes where an agent was just named,
// or whose options something else set), and sets panestate.OptHeld on the panes holding taw's
// options without it, so the looks to come read them. A pane that closed in between stops tmux's
// command list: the panes after it keep their brief rows, and are marked at the next full look.
func (w *Watcher) catchUp(ctx context.Context, panes []panestate.Pane, idx []int, unmarked []string) int {
	mark := "taw-row-" + w.nonce
	cmds := make([]tmux.Cmd, 0, len(idx)+len(unmarked))
	for _, i := range idx {
		cmds = append(cmds, tmux.Cmd{"display-message", "-p", "-t", panes[i].ID, tmux.Row(mark, lookFields.FullFormat())})
	}
	for _, id := range unmarked {
		cmds = append(cmds, panestate.HeldCmd(id))
	}
	out, err := w.cfg.Client.Run(ctx, cmds...)
	if err != nil {
		w.logf("read and mark panes short of the mark: %v", err)
	}
	full := map[string]panestate.Pane{}
	for _, line := range strings.Split(out, "\n") {
		if f := tmux.DecodeRow(line); f[0] == mark {
			if p, err := lookFieldsParser()(f[1:]); err == nil && !p.Brief() {
				full[p.ID] = p
			}
		}
	}
	for _, i := range idx {
		if p, ok := full[panes[i].ID]; ok {
			panes[i] = p.WithOptions(panes[i].Options)
		}
	}
	return 1
}

// observe hands the look to one observer; a panic in one feature is logged and does not stop
// the watcher or the other observers.
func (w *Watcher) observe(ctx context.Context, o Observer, l *Look) {
	defer func() {
		if r := recover(); r != nil {
			w.logf("observer %s panicked: %v", o.Name(), r)
		}
	}()
	o.Observe(ctx, l)
}

// resized is s with n zero elements, in s's memory when it has room.
func resized[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// hotLooks is how many looks after a needed capture the screen is captured with the first call:
// two, so that an agent repainting about once a second, a little slower than the looks, still
// costs one call a look.
const hotLooks = 2

// hotPanes are the panes whose screens the last look had to read, in a stable order.
func (w *Watcher) hotPanes() []string {
	var ids []string
	for id, m := range w.memo {
		if m.hot > 0 {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}

// probe finds what is in front of the pane: one stat file, that of the leader in front at the
// last probe, and the whole foreground group only when that leader no longer leads it, ran
// another program (exec: the same pid, another name) or is another process (its pid taken again:
// another start time); and, while no agent is named, again a few times after the content changes
// (reprobeGaps), for an agent a launcher starts later in the same group (npm exec, bash -c 'sleep
// 3; claude').
func (w *Watcher) probe(p panestate.Pane, m *paneMemo, now time.Time) Facts {
	m.probedNow = false
	if p.Dead {
		m.probed, m.agent, m.atPrompt = false, "", false
		return Facts{Known: true, Dead: true}
	}
	pid := p.PID
	if m.probed && m.front.PID > 0 {
		pid = m.front.PID
	}
	mark, err := w.marks.Read(pid)
	ended := m.ended(w.endedNow)
	moved := !m.probed || err != nil || mark != m.front || ended || m.awaitsWrapper(now)
	if moved && err != nil && pid == p.PID {
		// The pane's process is going (or has no terminal): nothing is decided until it is clear.
		m.probed = false
		return Facts{}
	}
	again := !moved && m.agent == "" && !m.atPrompt && reprobeDue(m.reprobes, contentChanged(p, m), now.Sub(m.probedAt))
	if moved || again {
		m.probedNow = true
		leader, group, shellInFront, err := procinfo.Foreground(p.PID)
		if err != nil {
			m.probed = false
			return Facts{}
		}
		if moved {
			m.reprobes = 0
		} else {
			m.reprobes++
		}
		// A leader read in the middle of an exec has no arguments yet: probe it again next look.
		m.probed, m.front = len(leader.Argv) > 0, procinfo.MarkOf(leader)
		m.members = m.members[:0]
		for _, q := range group {
			if q.PID != leader.PID && len(m.members) < maxWatchedMembers {
				m.members = append(m.members, q.PID)
			}
		}
		m.probedAt, m.probedPrint = now, fingerprint(p)
		m.atPrompt = shellInFront && IsInteractiveShell(leader)
		agent, why := "", "the pane's shell is at its prompt"
		if !m.atPrompt {
			agent, why = detect.Identify(leader, group)
		}
		if agent != m.agent {
			m.classified, m.fingerprint = false, contentPrint{}
		}
		m.agent, m.why = agent, why
		// An agent under "sh -c 'agent; exec sh'" ended and its wrapper, a shell alone in
		// front, has not gone on yet: it reads as the agent's launcher. Its exec may keep its
		// pid and name (nothing in the stat file changes), so the group is read again until it
		// has.
		switch {
		case agent == "" || len(m.members) > 0 || !shellquote.IsShell(leader.Comm):
			m.wrapperUntil = time.Time{}
		case ended:
			m.wrapperUntil = now.Add(wrapperFor)
		}
	}
	_, allowed := panestate.AnswerTaken(p.Options)
	return Facts{Known: true, AtPrompt: m.atPrompt, Agent: m.agent, Quit: quitting(p, m, now), Allowed: allowed}
}

// quitMarked is when agent quit, by the pane's OptQuit, ok only when that was less than
// QuitGraceMillis ago.
func quitMarked(p panestate.Pane, agent string, nowMs int64) (at int64, ok bool) {
	quit, at, ok := panestate.ParseQuit(p.Options[panestate.OptQuit])
	return at, ok && agent != "" && quit == agent && nowMs-at < QuitGraceMillis
}

// quitting says whether the agent in front quit a moment ago, by the word of taw's own
// integration for it (panestate.OptQuit), so that its process is still ending: the process in
// front when the quit was first seen, not one started since.
func quitting(p panestate.Pane, m *paneMemo, now time.Time) bool {
	at, ok := quitMarked(p, m.agent, now.UnixMilli())
	if !ok {
		return false
	}
	if m.quitAt != at {
		m.quitAt, m.quitFront = at, m.front
	}
	return m.front == m.quitFront
}

// reprobeGaps are the least times between a probe and the next one a change of content brings,
// while a pane shows a program that is no agent: the first at the next look, then slower, and
// none after the last until the foreground changes, so a busy plain program (a build, top) costs
// a few probes, not one a look.
var reprobeGaps = []time.Duration{0, 0, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second}

// reprobeDue says whether a pane showing no agent is probed again, given whether its content
// changed since the last probe, how many such probes were done since the foreground last
// changed, and how long ago the last probe was.
func reprobeDue(done int, changed bool, since time.Duration) bool {
	return changed && done < len(reprobeGaps) && since >= reprobeGaps[done]
}

// contentChanged says whether the pane's content may have changed since its processes were last
// read. The activity time has whole seconds: output in the second of the probe may have come
// after it.
func contentChanged(p panestate.Pane, m *paneMemo) bool {
	return fingerprint(p) != m.probedPrint || p.Activity >= m.probedAt.Unix()
}

// contentPrint is what fingerprint reads of a pane; the zero value is no pane's.
type contentPrint struct {
	activity                  int64
	history, cursorX, cursorY int
	alt                       bool
	width, height             int
	title                     string
}

// fingerprint changes whenever the pane's content may have: the window's last output (whole
// seconds), the cursor, the scrollback, the alternate screen, the size and the title.
func fingerprint(p panestate.Pane) contentPrint {
	return contentPrint{p.Activity, p.HistorySize, p.CursorX, p.CursorY, p.AltScreen, p.Width, p.Height, p.Title}
}

// needsCapture says whether the agent's screen may differ from the one last classified. The
// window's activity time has whole seconds, so output in the same second as the last capture
// may have come after it: such a screen is read once more.
func (w *Watcher) needsCapture(p panestate.Pane, m *paneMemo) bool {
	if w.cfg.Rules.Set(m.agent) == nil {
		// No rules: every screen of this agent reads the same (the idle fallback).
		if !m.classified {
			m.verdict, m.classified = w.cfg.Rules.Classify(m.agent, detect.Screen{}), true
		}
		return false
	}
	return !m.classified || fingerprint(p) != m.fingerprint || p.Activity >= m.capturedSec
}

// capture reads the screens of ids in one tmux call. A pane that closed in between stops tmux's
// command list, so the panes after it are read again in another call, without it.
func (w *Watcher) capture(ctx context.Context, ids []string) (map[string][]string, int) {
	all := map[string][]string{}
	calls := 0
	for len(ids) > 0 && calls <= len(ids) {
		out, err := w.cfg.Client.Run(ctx, captureCmds(w.nonce, ids)...)
		calls++
		screens, order := parseCaptures(out, w.nonce)
		done := 0
		for _, id := range order {
			if lines := screens[id]; len(lines) > 0 {
				all[id] = lines
				done++
			}
		}
		if err == nil {
			break
		}
		if tmux.IsServerGone(err) {
			break
		}
		// The pane after the last one read is the one that failed: skip it.
		failed := done
		if failed < len(ids) {
			w.logf("capture pane %s: %v", ids[failed], err)
		}
		ids = ids[min(failed+1, len(ids)):]
	}
	return all, calls
}

// wants is the decision for the pane as listed, whether its stored record differs from it, and
// whether it leaves the agent blocked with no dialog on record.
func (w *Watcher) wants(p panestate.Pane, f Facts, nowMs int64) (d Decision, changed, asks bool) {
	d = Decide(p.Record(), restoredAt(p), f, nowMs, w.grace.Milliseconds())
	if f.Agent == "" && panestate.HeldNothing(p.Options) {
		// Nothing of taw's on the pane and no agent in front: the record stays empty, and most
		// panes of a server are such panes.
		return d, false, false
	}
	next := panestate.OptionsFromRecord(p.Options, d.Record, nowMs)
	next[panestate.OptRestored] = formatRestored(d.Restored)
	return d, len(panestate.WriteCmds(p.ID, p.Options, next)) > 0, asksDialog(next)
}

// asksDialog says whether a pane's options hold a blocked agent with no dialog on record, or
// only the words of its hook (no options: made before the dialog was drawn).
func asksDialog(o map[string]string) bool {
	if o[panestate.OptState] != report.StateBlocked || o[panestate.OptName] == "" {
		return false
	}
	q := prompt.Decode(o[panestate.OptPrompt])
	return q == nil || len(q.Options) == 0
}

// blockedAgent says whether the record shows an agent blocked.
func blockedAgent(r report.Record) bool {
	agent, state := r.Effective()
	return agent != "" && state == report.StateBlocked
}

// dialogToRecord says whether q, read off the screen of a pane whose options will be o, goes
// on record: the agent is blocked and the record says something else.
func dialogToRecord(o map[string]string, q *prompt.Prompt) bool {
	return q != nil && o[panestate.OptState] == report.StateBlocked && o[panestate.OptName] != "" &&
		o[panestate.OptPrompt] != q.Encode()
}

// dialogs reads the dialogs of the blocked panes (indexes into panes) off their screens, so
// the read verbs find them on record and need not capture a screen each: the screen this look
// captured, else the last one when it has not changed since, else the screens read in one more
// tmux call. A screen that shows no dialog is read again only once it may have changed.
func (w *Watcher) dialogs(ctx context.Context, panes []panestate.Pane, blocked []int, screens map[string][]string, now time.Time) (map[string]*prompt.Prompt, int) {
	found := map[string]*prompt.Prompt{}
	var unread []string
	lines := map[string][]string{}
	for _, i := range blocked {
		p := panes[i]
		m := w.memo[p.ID]
		print := fingerprint(p)
		switch l, ok := screens[p.ID]; {
		case ok:
			lines[p.ID] = l
		case m.dialogPrint == print && p.Activity < m.dialogSec:
			continue // read already, and no dialog on it
		case m.lines != nil && m.fingerprint == print && p.Activity < m.capturedSec:
			lines[p.ID] = m.lines
		default:
			unread = append(unread, p.ID)
		}
		m.dialogPrint, m.dialogSec = print, now.Unix()
	}
	calls := 0
	if len(unread) > 0 {
		var more map[string][]string
		more, calls = w.capture(ctx, unread)
		for id, l := range more {
			lines[id] = l
		}
	}
	for _, i := range blocked {
		p := panes[i]
		if l, ok := lines[p.ID]; ok {
			if q := prompt.Read(p.Agent(), strings.Join(l, "\n")); q != nil {
				found[p.ID] = prompt.WithHook(q, p.HookMessage())
			}
		}
	}
	return found, calls
}

// batchPanes is how many panes' writes a look holds the locks of at once: the descriptors a look
// keeps open stay bounded however many agents start together.
const batchPanes = 64

// writeBatched writes the decisions of the panes at idx as the look read them, each under its
// lock and guarded (it takes only while the pane is as read), batchPanes at a time in as few tmux
// calls as fit. It returns the panes it did not write (busy, changed since the look, or too
// long for a batch), for write to take one by one.
func (w *Watcher) writeBatched(ctx context.Context, panes []panestate.Pane, idx []int, decisions []Decision, nowMs int64, st *Stats) (left []int) {
	for start := 0; start < len(idx); start += batchPanes {
		chunk := idx[start:min(start+batchPanes, len(idx))]
		var ws []panestate.Guarded
		var locked []int
		var unlocks []func()
		for _, i := range chunk {
			unlock, err := panestate.LockWithin(w.cfg.LockDir, panes[i].ID, lookLockWait)
			if err != nil {
				continue // busy: this pane waits for the next look, the others do not
			}
			// An option the look did not read (a pane not marked OptHeld, whose row was brief) is
			// taken as unset: a pane holds none of taw's options before it is marked, and the
			// guard writes nothing if that is not so.
			o := panestate.NoOptions()
			for k, v := range panes[i].Options {
				o[k] = v
			}
			was := panes[i].WithOptions(o)
			d := decisions[i]
			ws = append(ws, panestate.Guarded{Was: was, Rec: d.Record, Extra: map[string]string{panestate.OptRestored: formatRestored(d.Restored)}})
			locked = append(locked, i)
			unlocks = append(unlocks, unlock)
		}
		written, calls := panestate.CommitGuarded(ctx, w.cfg.Client, ws, nowMs)
		for _, unlock := range unlocks {
			unlock()
		}
		st.TmuxCalls += calls
		for k, i := range locked {
			if written[k] == nil {
				left = append(left, i)
				continue
			}
			panes[i] = *written[k]
			st.Writes++
			if d := decisions[i]; d.Gone {
				w.logf("pane %s: %s", panes[i].ID, d.Why)
			}
		}
	}
	return left
}

// lookLockWait is how long a look waits for a pane's lock before leaving the pane to the next
// look, so a writer that stopped holding it never stalls the watcher for every other pane.
const lookLockWait = 50 * time.Millisecond

// write applies the decision under the pane's lock, to the pane as it is now. What the lock
// needs is the pane read again: when its options are still those the look listed, nothing
// landed in between and the look's decision d stands; when a report landed, the shell seen at
// its prompt is checked once more (so an agent that started and reported is not cleared) and
// the pane decided again.
func (w *Watcher) write(ctx context.Context, p panestate.Pane, f Facts, d Decision, dialog *prompt.Prompt, nowMs int64) (*panestate.Pane, int, error) {
	unlock, err := panestate.LockWithin(w.cfg.LockDir, p.ID, lookLockWait)
	if err != nil {
		return nil, 0, err // busy: this pane waits for the next look, the others do not
	}
	defer unlock()
	fresh, err := panestate.Read(ctx, w.cfg.Client, p.ID)
	if err != nil {
		if tmux.IsPaneNotFound(err) {
			return nil, 1, nil
		}
		return nil, 1, err
	}
	if landed := fresh.PID != p.PID || fresh.Dead != p.Dead || !maps.Equal(fresh.Options, p.Options); landed {
		if f.AtPrompt && !fresh.Dead {
			// The shell must still be at its prompt: not in the background, and not exec'ed into
			// another program (the same pid under another name).
			if mark, err := w.marks.Read(fresh.PID); err != nil || mark != w.memo[p.ID].front {
				return nil, 1, nil // something started: the next look sees it
			}
		}
		f = screenStill(fresh, f)
		d = Decide(fresh.Record(), restoredAt(fresh), f, nowMs, w.grace.Milliseconds())
	}
	extra := map[string]string{panestate.OptRestored: formatRestored(d.Restored)}
	if next := panestate.OptionsFromRecord(fresh.Options, d.Record, nowMs); dialogToRecord(next, dialog) {
		// The dialog on screen is what an answer acts on: the record follows it, and so does
		// the message when a hook's words named less than the screen does.
		for k, v := range panestate.DialogOptions(next[panestate.OptMessage], dialog) {
			extra[k] = v
		}
	}
	written, err := panestate.Commit(ctx, w.cfg.Client, fresh, d.Record, nowMs, extra)
	if err != nil {
		return nil, 2, err
	}
	if d.Gone {
		w.logf("pane %s: %s", p.ID, d.Why)
	}
	return &written, 2, nil
}

func restoredAt(p panestate.Pane) int64 {
	n, _ := strconv.ParseInt(strings.TrimSpace(p.Options[panestate.OptRestored]), 10, 64)
	if n < 0 {
		return 0
	}
	return n
}

func formatRestored(ms int64) string {
	if ms <= 0 {
		return ""
	}
	return strconv.FormatInt(ms, 10)
}

// transitions compares this look's effective agents and states with the previous look's. The
// first look is the baseline and has none.
func (w *Watcher) transitions(panes []panestate.Pane, now time.Time) []Transition {
	cur := make(map[string]panestate.Pane, len(panes))
	for _, p := range panes {
		cur[p.ID] = p
	}
	first := w.prev == nil
	defer func() { w.prev = cur }()
	var out []Transition
	for _, p := range panes {
		old, seen := w.prev[p.ID]
		if first || (seen && old.Agent() == p.Agent() && old.State() == p.State()) {
			// A turn a report ended before the first look, or between two looks that saw idle
			// both times.
			if agent, from, ok := panestate.ParseTurnEnd(p.Options[panestate.OptTurnEnded]); ok &&
				agent == p.Agent() && p.State() == report.StateIdle {
				out = append(out, Transition{PaneID: p.ID, FromAgent: agent, FromState: from, ToAgent: agent, ToState: p.State(), Pane: p, At: now})
			}
			continue
		}
		if !seen && p.Agent() == "" {
			continue // a new plain pane
		}
		t := Transition{PaneID: p.ID, ToAgent: p.Agent(), ToState: p.State(), Pane: p, At: now}
		if seen {
			t.FromAgent, t.FromState = old.Agent(), old.State()
			m := w.memo[p.ID]
			t.FromSetup = m != nil && m.setup && old.State() == report.StateBlocked &&
				old.Record().ReportedState != report.StateBlocked
		}
		out = append(out, t)
	}
	for id, old := range w.prev {
		if _, ok := cur[id]; !ok {
			out = append(out, Transition{PaneID: id, FromAgent: old.Agent(), FromState: old.State(), Gone: true, Pane: old, At: now})
		}
	}
	return out
}

// takeTurnEnds takes away the turn-end marks this look has seen (panestate.OptTurnEnded), each
// only while it is the one seen: a report that ended another turn since keeps its own. One
// call for all of them, no command parsed in the server.
func (w *Watcher) takeTurnEnds(ctx context.Context, panes []panestate.Pane) int {
	var cmds []tmux.Cmd
	for i, p := range panes {
		mark := p.Options[panestate.OptTurnEnded]
		if mark == "" {
			continue
		}
		// A format chooses the value, empty (which reads as unset) only while the mark is the
		// one seen: if-shell would parse a command in the server, which tmux 3.3a to 3.7c
		// never free (about 500 bytes at every turn's end, for as long as the server runs).
		opt := "#{" + panestate.OptTurnEnded + "}"
		keep := "#{?#{==:" + opt + "," + tmuxfmt.Operand(mark) + "},," + opt + "}"
		cmds = append(cmds, tmux.Cmd{"set-option", "-p", "-t", p.ID, "-F", panestate.OptTurnEnded, keep})
		o := make(map[string]string, len(p.Options))
		for k, v := range p.Options {
			o[k] = v
		}
		delete(o, panestate.OptTurnEnded)
		panes[i].Options = o
	}
	if len(cmds) == 0 {
		return 0
	}
	if _, err := w.cfg.Client.Run(ctx, cmds...); err != nil {
		w.logf("take turn-end marks: %v", err)
	}
	return 1
}

// forget drops what the watcher kept of panes that closed, and their lock files. Pane ids are
// never reused by a server, so a pane seen before and missing now is gone for good.
func (w *Watcher) forget(panes []panestate.Pane) {
	alive := make(map[string]bool, len(panes))
	for _, p := range panes {
		alive[p.ID] = true
	}
	for id := range w.memo {
		if !alive[id] {
			delete(w.memo, id)
			_ = os.Remove(panestate.LockPath(w.cfg.LockDir, id))
		}
	}
	if w.looks == 0 {
		SweepLocks(w.cfg.LockDir, alive)
	}
}

// SweepLocks removes the lock files of panes that no longer exist. alive is every pane of the
// server as just listed. Only files of panes numbered below the highest listed one go: a pane
// created after the list has a higher number, and its lock may be in use.
func SweepLocks(dir string, alive map[string]bool) {
	highest := -1
	for id := range alive {
		if n, err := strconv.Atoi(strings.TrimPrefix(id, "%")); err == nil && n > highest {
			highest = n
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		num, ok := strings.CutPrefix(name, "pane-")
		if !ok {
			continue
		}
		num, ok = strings.CutSuffix(num, ".lock")
		n, err := strconv.Atoi(num)
		if !ok || err != nil || n >= highest || alive["%"+num] {
			continue
		}
		_ = os.Remove(filepath.Join(dir, name))
	}
}

func (w *Watcher) readSettings(s map[string]string) {
	if d, ok := parseInterval(s[tmuxconf.SettingWatchInterval], DefaultInterval); ok {
		w.interval = d
	} else {
		w.interval = DefaultInterval
		w.logf("%s is %q, not a duration from 100ms to 1m such as 1s or 500ms: using 1s", tmuxconf.SettingWatchInterval, s[tmuxconf.SettingWatchInterval])
	}
	if d, ok := parseDuration(s[tmuxconf.SettingRestoreGrace], DefaultGrace, 0, time.Hour); ok {
		w.grace = d
	} else {
		w.grace = DefaultGrace
		w.logf("%s is %q, not a duration from 0s to 1h such as 30s: using 30s", tmuxconf.SettingRestoreGrace, s[tmuxconf.SettingRestoreGrace])
	}
}

// logf logs a problem, the same message at most once a minute.
func (w *Watcher) logf(format string, args ...any) {
	if w.cfg.Logf == nil {
		return
	}
	msg := fmt.Sprintf(format, args...)
	now := time.Now()
	if t, ok := w.logged[msg]; ok && now.Sub(t) < time.Minute {
		return
	}
	if len(w.logged) > 1000 {
		w.logged = map[string]time.Time{}
	}
	w.logged[msg] = now
	w.cfg.Logf("%s", msg)
}
