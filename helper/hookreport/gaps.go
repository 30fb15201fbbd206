package hookreport

// What each agent's hooks leave unsaid, from what its current version fires and does not:
// the states its integration can report and then leave standing after the agent has moved
// on. For these, taw's pane watcher lets a screen that clearly shows the agent idle correct
// the hook (see watch.Decide).
//
//   - Claude Code fires no hook when the person presses Esc during a turn or answers No at a
//     permission prompt: working and blocked can go stale. Droid, Qoder, Devin, Grok, Kimi and
//     Cursor share the shape of its hooks and their gaps.
//   - Codex fires Interrupt on Esc, but nothing when the person declines an approval.
//   - Copilot CLI fires nothing on Esc or on a declined permission.
//   - Gemini CLI fires AfterAgent on Esc and on API errors, but nothing when a confirmation is
//     declined.
//   - OpenCode, Kilo, pi and omp report every change through their plugin events, and Hermes
//     through its plugin hooks: nothing to correct.
var staleStates = map[string][]string{
	"claude":   {Working, Blocked},
	"droid":    {Working, Blocked},
	"qodercli": {Working, Blocked},
	"devin":    {Working, Blocked},
	"grok":     {Working, Blocked},
	"kimi":     {Working, Blocked},
	"cursor":   {Working, Blocked},
	"codex":    {Working, Blocked},
	"copilot":  {Working, Blocked},
	"gemini":   {Blocked},
}

// MayGoStale says whether agent's hooks can leave state standing after the agent has gone
// back to its prompt.
func MayGoStale(agent, state string) bool {
	for _, s := range staleStates[agent] {
		if s == state {
			return true
		}
	}
	return false
}
