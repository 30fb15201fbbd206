package tmux

import "strings"

// tmux 3.3a's wait-for can lose a wake-up: a second signal on a channel that no one waits on
// clears the first (two signals count as none), and a wait-for client that was killed stays
// registered and takes the next signal. So every signal of taw's also counts up a generation in
// a global option beside the channel, and a waiter compares generations as well as waiting.

// wakeOptionPrefix names the generation options: @agent-wizard-wake-<channel>.
const wakeOptionPrefix = "@agent-wizard-wake-"

// WakeOption is the global option holding channel's generation.
func WakeOption(channel string) string { return wakeOptionPrefix + channel }

// SignalCmds wake every waiter of channel: its generation goes up, then the channel is signalled.
func SignalCmds(channel string) []Cmd {
	opt := WakeOption(channel)
	return []Cmd{
		{"set-option", "-gqF", opt, "#{e|+:#{" + opt + "},1}"},
		{"wait-for", "-S", channel},
	}
}

// SignalCommand is SignalCmds as one tmux command line, for a hook, which then starts no process.
func SignalCommand(channel string) string {
	opt := WakeOption(channel)
	return "set-option -gqF " + opt + " '#{e|+:#{" + opt + "},1}' ; wait-for -S " + channel
}

// IsSignalCommand says whether a hook's command, as tmux lists it, is a SignalCommand (or the
// plain wait-for -S of older taws) of one of taw's channels (all named taw-…).
func IsSignalCommand(command string) bool {
	if strings.HasPrefix(command, "wait-for -S taw-") {
		return true
	}
	// tmux lists the flags in an order of its own: -Fgq.
	return strings.HasPrefix(command, "set-option -") && strings.Contains(command, " "+wakeOptionPrefix+"taw-") &&
		strings.Contains(command, " ; wait-for -S taw-")
}

// UnsetWakeCmds remove the generation options of channels.
func UnsetWakeCmds(channels ...string) []Cmd {
	cmds := make([]Cmd, len(channels))
	for i, ch := range channels {
		cmds[i] = Cmd{"set-option", "-gqu", WakeOption(ch)}
	}
	return cmds
}
