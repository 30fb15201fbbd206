package session

import (
	"path/filepath"
	"strings"

	"github.com/taw-tmux/taw/helper/shellquote"
	"github.com/taw-tmux/taw/helper/tmuxconf"
)

// Settings that choose which programs a restore starts again (named and described in
// tmuxconf.Catalogue). A tmux-resurrect configuration keeps working: its @resurrect-processes is
// read when ours is unset.
const (
	SettingRestorePrograms      = tmuxconf.SettingRestorePrograms
	SettingResurrectProcesses   = "@resurrect-processes"
	SettingSavePaneContents     = tmuxconf.SettingSavePaneContents
	SettingPaneContentsLines    = tmuxconf.SettingPaneContentsLines
	SettingRestoreOnStart       = tmuxconf.SettingRestoreOnStart
	SettingRestoreVimSessions   = tmuxconf.SettingRestoreVimSessions
	DefaultPaneContentsLines    = 2000
	MaxPaneContentsLines        = 100000
	restoreOnStartReplaceValue  = "replace"
	resurrectAllWord            = ":all:"
	resurrectNoneWord           = "false"
	programsAllWord             = "all"
	programsNoneWord            = "none"
	programsKeepArgumentsSuffix = " *"
)

// DefaultPrograms are the programs a restore starts again with no setting: tmux-resurrect's own
// conservative list, programs that are safe to start twice.
var DefaultPrograms = []string{"vi", "vim", "nvim", "emacs", "man", "less", "more", "tail", "top", "htop", "irssi", "weechat", "mutt"}

// ProgramRule is one word of the setting: a program matched by its first word (exact) or
// anywhere in its command line (~), restored as it ran or as another command (->).
type ProgramRule struct {
	Match    string
	Contains bool
	Command  []string // the command to start instead; nil keeps the saved argv
	KeepArgs bool     // "->cmd *": the saved arguments follow the command
}

// ProgramRules say which saved programs a restore starts again.
type ProgramRules struct {
	All   bool // every program, even those no rule names
	None  bool // no program at all
	Rules []ProgramRule
}

// ParsePrograms reads the setting (ours, else resurrect's when ours is empty): the default list
// plus the person's words, "all" or "none" (resurrect's ":all:" and "false" too).
func ParsePrograms(ours, resurrect string) ProgramRules {
	value := ours
	if strings.TrimSpace(value) == "" {
		value = resurrect
	}
	var r ProgramRules
	for _, p := range DefaultPrograms {
		r.Rules = append(r.Rules, ProgramRule{Match: p})
	}
	for _, w := range shellquote.Words(value) {
		switch strings.ToLower(w) {
		case programsAllWord, resurrectAllWord:
			r.All = true
			continue
		case programsNoneWord, resurrectNoneWord:
			r.None = true
			continue
		}
		rule := ProgramRule{}
		match, command, replaced := strings.Cut(w, "->")
		if rest, ok := strings.CutPrefix(match, "~"); ok {
			rule.Contains, match = true, rest
		}
		rule.Match = strings.TrimSpace(match)
		if rule.Match == "" {
			continue
		}
		if replaced {
			if c, ok := strings.CutSuffix(command, programsKeepArgumentsSuffix); ok {
				rule.KeepArgs, command = true, c
			}
			rule.Command = strings.Fields(command)
			if len(rule.Command) == 0 {
				rule.Command, rule.KeepArgs = nil, false
			}
		}
		// The person's rule for a program wins over the default one for it.
		r.Rules = append([]ProgramRule{rule}, r.Rules...)
	}
	return r
}

// vimSessionFile is the file vim's :mksession writes; with @agent-wizard-restore-vim-sessions on,
// a vim or neovim saved in a directory holding a safe one is restored with it.
const vimSessionFile = "Session.vim"

// Restart is the argv a restore starts for a saved program, and whether it starts one: the saved
// argv exactly, unless a rule names another command.
func (r ProgramRules) Restart(argv []string) ([]string, bool) {
	if r.None || len(argv) == 0 || argv[0] == "" {
		return nil, false
	}
	name := filepath.Base(argv[0])
	line := strings.Join(append([]string{name}, argv[1:]...), " ")
	raw := strings.Join(argv, " ")
	for _, rule := range r.Rules {
		if !rule.matches(line, raw) {
			continue
		}
		if rule.Command == nil {
			return argv, true
		}
		out := append([]string(nil), rule.Command...)
		if rule.KeepArgs {
			out = append(out, argv[1:]...)
		}
		return out, true
	}
	if !r.All {
		return nil, false
	}
	return argv, true
}

func (rule ProgramRule) matches(line, raw string) bool {
	if rule.Contains {
		return strings.Contains(raw, rule.Match)
	}
	for _, l := range []string{line, raw} {
		if l == rule.Match || strings.HasPrefix(l, rule.Match+" ") {
			return true
		}
	}
	return false
}

// isVim says whether argv runs vim or neovim with no session of its own given (-S).
func isVim(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	switch filepath.Base(argv[0]) {
	case "vim", "nvim", "vi", "gvim":
	default:
		return false
	}
	for _, a := range argv[1:] {
		if strings.HasPrefix(a, "-S") {
			return false
		}
	}
	return true
}

// WithVimSession is the argv that gives vim the Session.vim at path: the session holds the
// editor's files, so the saved arguments give way to it.
func WithVimSession(argv []string, path string) []string {
	return []string{argv[0], "-S", path}
}
