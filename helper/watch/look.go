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
	"github.com/taw-tmux/taw/helper/tmux"
	"github.com/taw-tmux/taw/helper/tmuxconf"
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
}

// paneMemo is what the watcher keeps of one pane between looks.
type paneMemo struct {
	pid       int // the pane's process; a respawned pane starts over
	probed    bool
	probedNow bool          // the foreground group was read in this look
	front     procinfo.Mark // the group's leader at the last probe
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

	idle idleEvidence // the screen contradicting a hook, see countIdle
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
func (w *Watcher) Look(ctx context.Context) (*Look, Stats, error) {
	var st Stats
	// The screens that changed at the last look most likely changed again (an agent at work
	// repaints all the time): they are captured in the same call, and dropped if they did not.
	hot := w.hotPanes()
	full := w.looks%fullEvery == 0
	out, err := w.cfg.Client.Run(ctx, append(lookCmds(w.nonce, full), captureCmds(w.nonce, hot)...)...)
	st.TmuxCalls++
	data := parseLook(out, w.nonce)
	if err != nil && !(data.complete && len(hot) > 0) {
		// Only a hot pane that closed in between may fail the call after the panes were listed.
		return nil, st, err
	}
	early, _ := parseCaptures(out, w.nonce)
	now := w.cfg.Now()
	for _, row := range data.bad {
		w.logf("skip an unreadable pane row: %.80q", row)
	}
	w.readSettings(data.settings)
	st.Panes = len(data.panes)

	// facts and decisions live only in this look: their memory is the last look's, taken again.
	w.facts = resized(w.facts, len(data.panes))
	facts := w.facts
	screens := map[string][]string{}
	var toCapture []string
	var brief []int // panes with an agent or taw's options whose rows lack the held fields
	for i, p := range data.panes {
		m := w.memo[p.ID]
		if m == nil || m.pid != p.PID {
			m = &paneMemo{pid: p.PID}
			w.memo[p.ID] = m
		}
		facts[i] = w.probe(p, m, now)
		st.Probes += boolInt(m.probedNow)
		if p.Brief() && (m.agent != "" || !panestate.HeldNothing(p.Options)) {
			brief = append(brief, i)
		}
	}
	if len(brief) > 0 || len(data.unmarked) > 0 {
		st.TmuxCalls += w.catchUp(ctx, data.panes, brief, data.unmarked)
	}
	for _, p := range data.panes {
		m := w.memo[p.ID]
		if m.hot > 0 {
			m.hot--
		}
		if m.agent == "" || !w.needsCapture(p, m) {
			continue
		}
		m.hot = hotLooks
		if lines := early[p.ID]; len(lines) > 0 {
			screens[p.ID] = lines
		} else {
			toCapture = append(toCapture, p.ID)
		}
	}
	if len(toCapture) > 0 {
		more, calls := w.capture(ctx, toCapture)
		st.TmuxCalls += calls
		for id, lines := range more {
			screens[id] = lines
		}
	}
	st.Captures = len(screens)
	for i, p := range data.panes {
		lines, ok := screens[p.ID]
		if !ok {
			continue
		}
		m := w.memo[p.ID]
		m.verdict = w.cfg.Rules.Classify(m.agent, detect.Screen{Lines: lines, Title: p.Title})
		m.classified = true
		m.fingerprint = fingerprint(p)
		m.capturedSec = now.Unix()
		m.lines = lines
		facts[i].Classified, facts[i].State = true, m.verdict.State
	}
	for i, p := range data.panes {
		if m := w.memo[p.ID]; m.agent != "" && m.classified && !facts[i].Classified {
			// The screen has not changed since it was last read: its verdict stands.
			facts[i].Classified, facts[i].State = true, m.verdict.State
		}
	}
	for i, p := range data.panes {
		countIdle(p, w.memo[p.ID], &facts[i], now)
	}

	nowMs := now.UnixMilli()
	w.decisions = resized(w.decisions, len(data.panes))
	decisions := w.decisions
	due := make([]bool, len(data.panes))
	var blocked []int // panes the decision leaves blocked with no dialog on record
	for i, p := range data.panes {
		var asks bool
		decisions[i], due[i], asks = w.wants(p, facts[i], nowMs)
		if asks {
			blocked = append(blocked, i)
		}
	}
	dialogs, calls := w.dialogs(ctx, data.panes, blocked, screens, now)
	st.TmuxCalls += calls
	panes := make([]panestate.Pane, len(data.panes))
	for i, p := range data.panes {
		panes[i] = p
		q := dialogs[p.ID]
		if !due[i] && q == nil {
			continue
		}
		written, calls, err := w.write(ctx, p, facts[i], decisions[i], q, nowMs)
		st.TmuxCalls += calls
		if err != nil {
			w.logf("write pane %s: %v", p.ID, err)
			continue
		}
		if written != nil {
			panes[i] = *written
			st.Writes++
		}
	}

	look := &Look{Client: w.cfg.Client, Panes: panes, Clients: data.clients, Now: now}
	look.Transitions = w.transitions(panes, now)
	w.forget(panes)
	w.marks.Sweep()
	w.looks++
	for _, o := range w.cfg.Observers {
		w.observe(ctx, o, look)
	}
	return look, st, nil
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
	moved := !m.probed || err != nil || mark != m.front
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
	}
	return Facts{Known: true, AtPrompt: m.atPrompt, Agent: m.agent}
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

// asksDialog says whether a pane's options hold a blocked agent with no dialog on record.
func asksDialog(o map[string]string) bool {
	return o[panestate.OptState] == report.StateBlocked && o[panestate.OptName] != "" && o[panestate.OptPrompt] == ""
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
		f = idleStill(fresh, f)
		d = Decide(fresh.Record(), restoredAt(fresh), f, nowMs, w.grace.Milliseconds())
	}
	extra := map[string]string{panestate.OptRestored: formatRestored(d.Restored)}
	if dialog != nil && asksDialog(panestate.OptionsFromRecord(fresh.Options, d.Record, nowMs)) {
		// Recorded once, like the read verbs do: an answer is checked against the dialog first read.
		extra[panestate.OptPrompt] = dialog.Encode()
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
	defer func() { w.prev = cur }()
	if w.prev == nil {
		return nil
	}
	var out []Transition
	for _, p := range panes {
		old, seen := w.prev[p.ID]
		if seen && old.Agent() == p.Agent() && old.State() == p.State() {
			continue
		}
		if !seen && p.Agent() == "" {
			continue // a new plain pane
		}
		t := Transition{PaneID: p.ID, ToAgent: p.Agent(), ToState: p.State(), Pane: p, At: now}
		if seen {
			t.FromAgent, t.FromState = old.Agent(), old.State()
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
