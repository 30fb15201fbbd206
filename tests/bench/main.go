// Command bench is `make bench`: it measures taw against baselines taken in the same run (medians
// and their ratios), on real tmux servers of its own, and prints one table. Nothing here asserts a
// time: the figures are for people to read.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A benchmark registers itself from its own file with register.
type benchmark struct {
	name string
	run  func(e *Env) ([]Result, error)
}

var benchmarks []benchmark

func register(name string, run func(e *Env) ([]Result, error)) {
	benchmarks = append(benchmarks, benchmark{name, run})
}

// Result is one line of the table.
type Result struct {
	What     string  // what was measured
	Value    float64 // the median, in Unit
	Unit     string  // "ms", "MB/s", "% of a core", …
	Baseline string  // what it is compared with, "" for none
	BaseVal  float64
	Goal     string // the goal, as the issue states it
}

// Env is what every benchmark gets: the taw binary and a way to start tmux servers.
type Env struct {
	Taw     string
	Root    string
	TmpDir  string
	servers []string
}

// Server starts a fresh tmux server (-f /dev/null) and returns its -L name. It is killed at exit.
func (e *Env) Server(tag string) (string, error) {
	name := fmt.Sprintf("taw-bench-%s-%d", tag, os.Getpid())
	cmd := exec.Command("tmux", "-L", name, "-f", "/dev/null", "new-session", "-d", "-s", "bench", "-x", "200", "-y", "50")
	cmd.Env = e.Environ()
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("start tmux: %v: %s", err, out)
	}
	e.servers = append(e.servers, name)
	return name, nil
}

// Environ is the environment benchmarks run taw and tmux with.
func (e *Env) Environ() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TMUX=") || strings.HasPrefix(kv, "TMUX_PANE=") || strings.HasPrefix(kv, "TMUX_TMPDIR=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "TMUX_TMPDIR="+e.TmpDir, "XDG_RUNTIME_DIR="+e.TmpDir, "XDG_DATA_HOME="+filepath.Join(e.TmpDir, "data"), "XDG_CONFIG_HOME="+filepath.Join(e.TmpDir, "config"))
}

// Tmux runs one tmux command on a server.
func (e *Env) Tmux(server string, args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-L", server}, args...)...)
	cmd.Env = e.Environ()
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// Run runs a program with the bench environment plus extra variables.
func (e *Env) Run(extra []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = append(e.Environ(), extra...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func main() {
	only := flag.String("only", "", "run only the benchmarks whose name contains this")
	flag.Parse()
	root, _ := os.Getwd()
	tmp, err := os.MkdirTemp("/tmp", "tawb")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	e := &Env{Taw: filepath.Join(root, "bin", "taw"), Root: root, TmpDir: tmp}
	defer func() {
		for _, s := range e.servers {
			_, _ = e.Tmux(s, "kill-server")
		}
		os.RemoveAll(tmp)
	}()
	fmt.Printf("%-58s %12s   %-40s %12s %8s   %s\n", "measured", "median", "baseline (same run)", "median", "ratio", "goal")
	failed := false
	for _, b := range benchmarks {
		if *only != "" && !strings.Contains(b.name, *only) {
			continue
		}
		results, err := b.run(e)
		if err != nil {
			fmt.Printf("%-58s error: %v\n", b.name, err)
			failed = true
			continue
		}
		for _, r := range results {
			ratio := ""
			base := ""
			if r.Baseline != "" {
				base = fmt.Sprintf("%.3f %s", r.BaseVal, r.Unit)
				if r.BaseVal != 0 {
					ratio = fmt.Sprintf("%.2fx", r.Value/r.BaseVal)
				}
			}
			fmt.Printf("%-58s %9.3f %-3s  %-40s %12s %8s   %s\n", r.What, r.Value, r.Unit, r.Baseline, base, ratio, r.Goal)
		}
	}
	if failed {
		os.Exit(1)
	}
}
