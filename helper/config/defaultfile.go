package config

// DefaultFile is what taw config default prints: every key, at its default, with what it does.
// Parsing it gives Default() (a test holds it to that).
const DefaultFile = `# taw's configuration: $XDG_CONFIG_HOME/taw/config.toml (else ~/.config/taw/config.toml).
# Every key is shown at its default. A key left out keeps its default; a bad value is reported
# (taw config check) and keeps its default too.

[session]
# Restore types each pane's resume command, so agents come back in their own session.
resume_agents_on_restore = true

[notify]
# Notifications at all. The tmux option @agent-wizard-notify (on or off), when set, wins over this.
enabled = true
# Notify when an agent needs a decision (its state becomes blocked).
blocked = true
# Notify when an agent finishes a turn (working or blocked becomes idle).
finished = true
# The state must still hold this long after it changed, so a flicker is not notified.
recheck_delay = "1s"
# At most one notification of each kind per pane in this long.
rate_limit = "5s"

# Channels: each one on or off.
# A message on the status line of every attached client.
tmux_message = true
# How long the message stays.
tmux_message_duration = "5s"
# The terminal bell, written to every attached client's terminal.
bell = false
# A desktop notification through the terminal: an OSC escape (9, 777 or 99) written to every
# attached client's terminal, for terminals that turn it into a desktop notification.
terminal = false
# Which escape: "auto" (OSC 99 for kitty, OSC 777 for foot and rxvt, OSC 9 otherwise), "osc9",
# "osc777" or "osc99".
terminal_protocol = "auto"
# Wrap the escape for a tmux between the client and the terminal (DCS tmux passthrough, which
# needs allow-passthrough on in that outer tmux): "auto" (when the client's terminal is tmux or
# screen), "on" or "off".
terminal_passthrough = "auto"
# A desktop notification with notify-send (Linux) or terminal-notifier (macOS), when present.
desktop = true
# Run sound_command.
sound = false
# The sound command, an argv run without a shell; TAW_NOTIFY_KIND is blocked or finished.
# For example ["paplay", "/usr/share/sounds/freedesktop/stereo/complete.oga"].
sound_command = []

# Per agent, by its name (as taw agent list shows it): false turns its notifications off.
[notify.agents]
# claude = false

[hooks]
# The time limit of every hook command (and plugin event, action and startup command that sets
# none); one that runs longer is killed and logged. "0s" is no limit.
timeout = "10s"

# One [[hooks.commands]] table per command. on: state_changed, blocked, finished,
# agent_appeared, agent_gone, or "*" for every event. command: an argv run without a shell, with
# TAW_PANE, TAW_EVENT (the event as JSON), TAW_AGENT, TAW_STATE and TAW_SOURCE in its environment.
# [[hooks.commands]]
# on = "blocked"
# command = ["notify-me", "--urgent"]

[plugins]
# Plugins at all: startup commands, event hooks, key bindings, actions, panes and popups.
enabled = true
`
