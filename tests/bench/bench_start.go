package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// pluginFiles are what a fresh copy of the plugin holds: what a plugin manager clones, no binary.
var pluginFiles = []string{"taw.tmux", "scripts", "helper", "integrations", "go.mod", "go.sum"}

// The first tmux start after installing the plugin: `tmux new-session -d` with a tmux.conf that
// runs taw.tmux from a fresh copy of the plugin (no binary built yet), beside the same start with
// a tmux.conf without taw. tmux must wait neither for the build nor for the load: the helper is
// built in the background and loads when it is done, which is timed too (start to
// @agent-wizard-bin set); later starts load in the background (start to @agent-wizard-loaded set).
// The runs share Go's build cache (the plugin's own build is cold: it has no binary); with
// TAW_BENCH_EMPTY_GOCACHE=1 one more run starts from an empty Go build cache, as a fresh machine
// would (minutes of compiling on a busy machine).
func init() {
	register("start", func(e *Env) ([]Result, error) {
		plain := filepath.Join(e.TmpDir, "plain.conf")
		if err := os.WriteFile(plain, []byte("set -g status-right 'mine'\n"), 0o644); err != nil {
			return nil, err
		}
		i := 0
		start := func(conf string, extra []string) (string, error) {
			i++
			name := fmt.Sprintf("taw-bench-start-%d-%d", os.Getpid(), i)
			if out, err := e.Run(extra, "tmux", "-L", name, "-f", conf, "new-session", "-d", "-s", "bench"); err != nil {
				return "", fmt.Errorf("start tmux: %v: %s", err, out)
			}
			e.servers = append(e.servers, name)
			return name, nil
		}
		// fresh makes a copy of the plugin with no binary and the tmux.conf that runs it.
		fresh := func() (dir, conf string, err error) {
			dir, err = os.MkdirTemp(e.TmpDir, "plugin")
			if err != nil {
				return "", "", err
			}
			args := []string{"-r"}
			for _, f := range pluginFiles {
				args = append(args, filepath.Join(e.Root, f))
			}
			if out, err := e.Run(nil, "cp", append(args, dir)...); err != nil {
				return "", "", fmt.Errorf("copy the plugin: %v: %s", err, out)
			}
			conf = filepath.Join(dir, "tmux.conf")
			err = os.WriteFile(conf, []byte("set -g status-right 'mine'\nrun-shell "+filepath.Join(dir, "taw.tmux")+"\n"), 0o644)
			return dir, conf, err
		}
		// loaded waits (bounded) until the server has loaded the binary the plugin built.
		loaded := func(server, dir string) error {
			want := filepath.Join(dir, "bin", "taw")
			status := ""
			if !waitFor(15*time.Minute, 20*time.Millisecond, func() bool {
				if got, _ := e.Tmux(server, "show-options", "-gqv", "@agent-wizard-bin"); got == want {
					return true
				}
				status, _ = e.Tmux(server, "show-options", "-gqv", "@agent-wizard-status")
				return strings.Contains(status, "failed")
			}) {
				return fmt.Errorf("the plugin did not load its build within 15m: %s", status)
			}
			if strings.Contains(status, "failed") {
				return fmt.Errorf("the plugin's build failed: %s", status)
			}
			return nil
		}
		// loadDone waits (bounded) until the load taw.tmux started in the background is done.
		loadDone := func(server string) error {
			if waitFor(time.Minute, 5*time.Millisecond, func() bool {
				got, _ := e.Tmux(server, "show-options", "-gqv", "@agent-wizard-loaded")
				return got != ""
			}) {
				return nil
			}
			return fmt.Errorf("the plugin's load did not finish within 1m")
		}
		stop := func(server string) { _, _ = e.Tmux(server, "kill-server") }

		// startStop is one start of a server with conf, which is stopped again.
		startStop := func(conf string) func() error {
			return func() error {
				s, err := start(conf, nil)
				stop(s)
				return err
			}
		}
		const n = 5
		without, err := Median(n, startStop(plain))
		if err != nil {
			return nil, err
		}
		lastConf := "" // the tmux.conf of the last fresh copy, whose binary is built by then
		// The floor of any plugin: a tmux.conf whose run-shell runs a script that does nothing.
		noop := filepath.Join(e.TmpDir, "noop.conf")
		if err := os.WriteFile(noop, []byte("set -g status-right 'mine'\nrun-shell true\n"), 0o644); err != nil {
			return nil, err
		}
		floor, err := Median(n, startStop(noop))
		if err != nil {
			return nil, err
		}
		// run is one first start with the plugin: how long tmux took to start, and how long until
		// the built helper was loaded.
		run := func(extra []string) (started, load time.Duration, err error) {
			dir, conf, err := fresh()
			if err != nil {
				return 0, 0, err
			}
			lastConf = conf
			t := time.Now()
			s, err := start(conf, extra)
			if err != nil {
				return 0, 0, err
			}
			defer stop(s)
			started = time.Since(t)
			err = loaded(s, dir)
			return started, time.Since(t), err
		}
		var starts, loads []time.Duration
		for k := 0; k < n; k++ {
			st, ld, err := run(nil)
			if err != nil {
				return nil, err
			}
			starts, loads = append(starts, st), append(loads, ld)
		}
		// Every later start: the plugin's binary is built and up to date; its load runs in the
		// background too, and is timed until it marks itself done (@agent-wizard-loaded).
		var builtStarts, builtLoads []time.Duration
		for k := 0; k < n; k++ {
			t := time.Now()
			s, err := start(lastConf, nil)
			if err != nil {
				return nil, err
			}
			builtStarts = append(builtStarts, time.Since(t))
			err = loadDone(s)
			builtLoads = append(builtLoads, time.Since(t))
			stop(s)
			if err != nil {
				return nil, err
			}
		}
		built := medianDuration(builtStarts)
		results := []Result{
			{What: "first tmux start with the plugin, no binary yet", Value: Ms(medianDuration(starts)), Unit: "ms",
				Baseline: "tmux start without taw", BaseVal: Ms(without), Goal: "as fast as without taw"},
			{What: "first tmux start with the plugin, no binary yet", Value: Ms(medianDuration(starts)), Unit: "ms",
				Baseline: "tmux start running run-shell true", BaseVal: Ms(floor), Goal: "the floor of any plugin"},
			{What: "  start to the built helper loaded (background)", Value: Ms(medianDuration(loads)), Unit: "ms", Goal: "not waited for"},
			{What: "later tmux starts, the plugin's binary built", Value: Ms(built), Unit: "ms",
				Baseline: "tmux start without taw", BaseVal: Ms(without), Goal: "as fast as without taw"},
			{What: "  start to the load done (background)", Value: Ms(medianDuration(builtLoads)), Unit: "ms", Goal: "not waited for"},
		}
		if os.Getenv("TAW_BENCH_EMPTY_GOCACHE") == "1" {
			coldStart, coldLoad, err := run([]string{"GOCACHE=" + filepath.Join(e.TmpDir, "gocache")})
			if err != nil {
				return nil, err
			}
			results = append(results,
				Result{What: "first tmux start, empty Go build cache (1 run)", Value: Ms(coldStart), Unit: "ms",
					Baseline: "tmux start without taw", BaseVal: Ms(without), Goal: "as fast as without taw"},
				Result{What: "  start to the built helper loaded (background)", Value: Ms(coldLoad), Unit: "ms", Goal: "not waited for"})
		}
		return results, nil
	})
}
