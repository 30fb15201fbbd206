// Command bench is `make bench`: it measures taw against baselines taken in the same run (medians
// and their ratios), on real tmux servers of its own, and prints one table. Nothing here asserts a
// time: the figures are for people to read.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// soakFor is how long the soak runs (-soak); short by default, so a whole bench stays short.
var soakFor = 20 * time.Second

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
	procs   []*exec.Cmd // programs a benchmark started, killed at the clean-up
	cleaned sync.Once
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

func main() { os.Exit(run()) }

// run is the whole bench; it returns the exit status, so that its clean-up runs before the
// process exits (os.Exit runs no deferred call).
func run() int {
	only := flag.String("only", "", "run only the benchmarks whose name contains this")
	flag.DurationVar(&soakFor, "soak", soakFor, "how long the soak runs its reporters")
	flag.Parse()
	root, _ := os.Getwd()
	tmp, err := os.MkdirTemp("/tmp", "tawb")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	e := &Env{Taw: filepath.Join(root, "bin", "taw"), Root: root, TmpDir: tmp}
	defer e.cleanup()
	// An interrupt (^C, a CI timeout) cleans up too.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		<-sigs
		e.cleanup()
		os.Exit(130)
	}()
	fmt.Printf("%-58s %12s   %-40s %12s %8s   %s\n", "measured", "median", "baseline (same run)", "median", "ratio", "goal")
	failed := false
	for _, b := range benchmarks {
		if *only != "" && !strings.Contains(b.name, *only) {
			continue
		}
		results, err := runOne(b, e)
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
		return 1
	}
	return 0
}

// runOne runs one benchmark; a panic in it is its error, so the others and the clean-up still run.
func runOne(b benchmark, e *Env) (results []Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return b.run(e)
}

// cleanup kills every tmux server of the run, those it registered and any other whose socket is
// in the run's folder, and removes the folder. It runs once.
func (e *Env) cleanup() {
	e.cleaned.Do(func() {
		for _, p := range e.procs {
			if p.Process != nil {
				_ = p.Process.Kill()
			}
		}
		for _, s := range e.servers {
			_, _ = e.Tmux(s, "kill-server")
		}
		sockets, _ := filepath.Glob(filepath.Join(e.TmpDir, fmt.Sprintf("tmux-%d", os.Getuid()), "*"))
		for _, sock := range sockets {
			cmd := exec.Command("tmux", "-S", sock, "kill-server")
			cmd.Env = e.Environ()
			_ = cmd.Run()
		}
		os.RemoveAll(e.TmpDir)
	})
}
