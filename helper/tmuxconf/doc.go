// Package tmuxconf makes taw's changes to the user's tmux politely: settings are read from
// @agent-wizard-… options with defaults, hooks are appended (never replacing the user's) and
// tagged so a reload does not duplicate them and unload removes exactly them, and keys are bound
// only where nothing of the user's is bound.
package tmuxconf
