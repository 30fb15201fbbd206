package panectl

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/taw-tmux/taw/helper/coded"
)

// Worktree is one git checkout of a repository, as herdr's WorktreeInfo describes it.
type Worktree struct {
	Path       string  `json:"path"`
	Branch     *string `json:"branch"`
	IsBare     bool    `json:"is_bare"`
	IsDetached bool    `json:"is_detached"`
	IsPrunable bool    `json:"is_prunable"`
	IsLinked   bool    `json:"is_linked_worktree"`
	Label      string  `json:"label"`
	OpenIn     *string `json:"open_workspace_id"`
}

// git runs git with argv (no shell) in dir and returns its output.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", coded.Errorf(coded.Git, "git %s: %s", args[0], strings.ToLower(msg[:1])+msg[1:])
	}
	return strings.TrimSpace(out.String()), nil
}

// RepoRoot is the top folder of the repository that holds dir.
func RepoRoot(ctx context.Context, dir string) (string, error) {
	d, err := CheckDir(dir)
	if err != nil {
		return "", err
	}
	return git(ctx, d, "rev-parse", "--path-format=absolute", "--git-common-dir")
}

// mainCheckout is the main worktree's folder of the repository holding dir.
func mainCheckout(ctx context.Context, dir string) (string, error) {
	common, err := RepoRoot(ctx, dir)
	if err != nil {
		return "", err
	}
	if filepath.Base(common) == ".git" {
		return filepath.Dir(common), nil
	}
	return common, nil // a bare repository
}

// Worktrees lists the checkouts of the repository holding dir, each with the session open in
// it, if any.
func (c *Ctl) Worktrees(ctx context.Context, dir string) (repo string, list []Worktree, err error) {
	repo, err = mainCheckout(ctx, dir)
	if err != nil {
		return "", nil, err
	}
	out, err := git(ctx, repo, "worktree", "list", "--porcelain")
	if err != nil {
		return "", nil, err
	}
	open := map[string]string{}
	if ss, err := c.Sessions(ctx); err == nil {
		for _, s := range ss {
			open[filepath.Clean(s.Path)] = s.ID
		}
	}
	var cur *Worktree
	for _, line := range append(strings.Split(out, "\n"), "") {
		k, v, _ := strings.Cut(line, " ")
		switch k {
		case "worktree":
			list = append(list, Worktree{Path: v, Label: filepath.Base(v), IsLinked: len(list) > 0})
			cur = &list[len(list)-1]
			if id, ok := open[filepath.Clean(v)]; ok {
				cur.OpenIn = &id
			}
		case "branch":
			if cur != nil {
				b := strings.TrimPrefix(v, "refs/heads/")
				cur.Branch = &b
			}
		case "bare":
			if cur != nil {
				cur.IsBare = true
			}
		case "detached":
			if cur != nil {
				cur.IsDetached = true
			}
		case "prunable":
			if cur != nil {
				cur.IsPrunable = true
			}
		}
	}
	return repo, list, nil
}

// WorktreeOptions say which checkout to make.
type WorktreeOptions struct {
	Dir    string // a folder inside the repository
	Branch string // checked out if it exists, else made from Base (or HEAD)
	Base   string
	Path   string // "" for a folder beside the repository: <repo>-<branch>
	Label  string // the session's name; "" for <repo>-<branch>
}

// CreateWorktree makes a git worktree and opens it as a new session. The branch is never
// deleted afterwards, by this or by RemoveWorktree.
func (c *Ctl) CreateWorktree(ctx context.Context, o WorktreeOptions) (Worktree, Created, error) {
	repo, err := mainCheckout(ctx, o.Dir)
	if err != nil {
		return Worktree{}, Created{}, err
	}
	if o.Branch == "" {
		return Worktree{}, Created{}, coded.Errorf(coded.InvalidArgument, "name the branch the worktree checks out")
	}
	if _, err := git(ctx, repo, "check-ref-format", "--branch", o.Branch); err != nil || strings.HasPrefix(o.Branch, "-") {
		return Worktree{}, Created{}, coded.Errorf(coded.InvalidArgument, "invalid branch %q: not a name git takes for a branch", o.Branch)
	}
	slug := strings.NewReplacer("/", "-", ":", "-", ".", "-").Replace(o.Branch)
	path := o.Path
	if path == "" {
		path = repo + "-" + slug
	}
	if !filepath.IsAbs(path) {
		return Worktree{}, Created{}, coded.Errorf(coded.InvalidArgument, "invalid path %q: give an absolute path", path)
	}
	path = filepath.Clean(path)
	if err := freshFolder(path); err != nil {
		return Worktree{}, Created{}, err
	}
	label := o.Label
	if label == "" {
		label = filepath.Base(repo) + "-" + slug
		label = strings.NewReplacer(":", "-", ".", "-").Replace(label)
	}
	if err := CheckLabel(label, true); err != nil {
		return Worktree{}, Created{}, err
	}
	if _, err := c.Tmux.Output(ctx, "has-session", "-t", "="+label); err == nil {
		return Worktree{}, Created{}, coded.Errorf(coded.InvalidArgument, "a session named %q exists already: give another label", label)
	}
	args := []string{"worktree", "add"}
	if _, err := git(ctx, repo, "rev-parse", "--verify", "--quiet", "refs/heads/"+o.Branch); err == nil {
		args = append(args, "--", path, o.Branch)
	} else {
		args = append(args, "-b", o.Branch, "--", path)
		if o.Base != "" {
			if strings.HasPrefix(o.Base, "-") {
				return Worktree{}, Created{}, coded.Errorf(coded.InvalidArgument, "invalid base %q", o.Base)
			}
			args = append(args, o.Base)
		}
	}
	if _, err := git(ctx, repo, args...); err != nil {
		return Worktree{}, Created{}, err
	}
	made, err := c.NewSession(ctx, label, path, nil, nil)
	if err != nil {
		return Worktree{}, Created{}, err
	}
	b := o.Branch
	return Worktree{Path: path, Branch: &b, IsLinked: true, Label: filepath.Base(path), OpenIn: &made.SessionID}, made, nil
}

// freshFolder refuses a path that exists, or whose parent is not a folder of this user's (a
// checkout goes only where the user owns the folder, never through a link someone planted).
func freshFolder(path string) error {
	if _, err := os.Lstat(path); err == nil {
		return coded.Errorf(coded.InvalidArgument, "invalid path %q: it exists already", path)
	}
	parent := filepath.Dir(path)
	st, err := os.Lstat(parent)
	if err != nil || !st.IsDir() {
		return coded.Errorf(coded.InvalidArgument, "invalid path %q: its folder %s is not a folder (or is a link)", path, parent)
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		return coded.Errorf(coded.InvalidArgument, "invalid path %q: its folder %s belongs to another user", path, parent)
	}
	return nil
}

// RemoveWorktree runs git worktree remove on the linked checkout a session is open in, then
// closes the session. The main checkout is refused; so is a checkout with changes, unless force.
func (c *Ctl) RemoveWorktree(ctx context.Context, session string, force bool) (string, error) {
	s, err := c.Session(ctx, session)
	if err != nil {
		return "", err
	}
	repo, list, err := c.Worktrees(ctx, s.Path)
	if err != nil {
		return "", err
	}
	var wt *Worktree
	for i := range list {
		if filepath.Clean(list[i].Path) == filepath.Clean(s.Path) {
			wt = &list[i]
		}
	}
	if wt == nil || !wt.IsLinked {
		return "", coded.Errorf(coded.InvalidArgument, "workspace %s (%s) is not open in a linked worktree: nothing removed", s.ID, s.Path)
	}
	args := []string{"worktree", "remove"}
	if force {
		args = append(args, "--force")
	}
	if _, err := git(ctx, repo, append(args, "--", wt.Path)...); err != nil {
		return "", err
	}
	return wt.Path, c.KillSession(ctx, s.ID)
}
