package agents

// Hooks is how an agent's hook system reports to taw through the hook script taw installs
// (`taw hook report <agent> <event>`, with the event's JSON payload on stdin): the events taw
// registers, how each maps onto the shared events the hook rules know (Claude Code's), where the
// payload keeps what taw reads (which states the hooks leave standing is the agent's Corrections). An agent whose
// integration is a plugin reporting through `taw pane report-agent` has none.
type Hooks struct {
	// Events are the agent's own event names that taw's installer registers, each run as
	// `taw-agent-state.sh <event>`.
	Events []string
	// Rename maps the agent's event names onto the shared ones; a name it lacks is shared as it is.
	Rename map[string]string
	// SessionKeys are the payload's keys of the session id, the first one set wins.
	SessionKeys []string
	// SessionEnv names the environment variable that gives the session over the payload's.
	SessionEnv string
	// ThreadEnv names the environment variable holding the session the agent itself runs: a hook
	// carrying another session is a nested run of the agent sharing the pane, and is dropped.
	ThreadEnv string
	// QuestionTool is the tool through which the agent asks the person a question (PreToolUse of
	// it is blocked, with the question).
	QuestionTool string
	// BlockingNotices are words a Notification's type holds when it asks the person to approve.
	BlockingNotices []string
	// SessionEndKeeps are SessionEnd reasons after which the same process goes on with another
	// session: no release.
	SessionEndKeeps []string
	// ResumeFlags are options the payload adds to the agent's resume command.
	ResumeFlags []ResumeFlag
	// Settings, when set, is an install of the common shape: the script in the agent's config
	// folder and one entry per event in a JSON settings file, as Claude Code's settings.json.
	Settings *Settings
}

// ResumeFlag is an option of a resume command whose value the hook's payload gives.
type ResumeFlag struct {
	Flag string // "--model"
	Key  string // the payload's key of its value
	// Omit is a value the option is left out for (the agent's default).
	Omit string
	// Keep: when the payload lacks the value, the option and its value are kept from the
	// pane's current command for the same session (the agent names it only at session start).
	Keep bool
}

// Settings is where an install of the common shape goes.
type Settings struct {
	// Home is the agent's config folder under the home folder (".claude"), and DirEnv the
	// variable that moves it, "" when none does.
	Home   string
	DirEnv string
	// Script is where the hook script goes in the folder, File the JSON settings file edited.
	Script string
	File   string
	// Timeout is the entries' timeout in the agent's unit, 0 for none.
	Timeout int
}

// States the hooks of an agent can leave standing.
const (
	Working = "working"
	Blocked = "blocked"
)

// HooksOf is the hooks of the agent with exactly this id, nil when it has none.
func HooksOf(id string) *Hooks {
	a, ok := Lookup(id)
	if !ok || a.ID != id {
		return nil
	}
	return a.Hooks
}
