GO      ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || head -n 1 VERSION 2>/dev/null || echo dev)
LDFLAGS := -s -w -X github.com/taw-tmux/taw/helper/cli.Version=$(VERSION)
TAGS    := urfave_cli_no_docs

.PHONY: all build test unit e2e e2e-tmux test-tmux test-agents bench demo lint fmt clean

all: build

build: bin/taw

# CGO_ENABLED=0: a static binary skips the dynamic loader and libc at every start, and taw runs
# on every agent event.
bin/taw: go.mod go.sum $(shell find helper integrations -type f 2>/dev/null)
	CGO_ENABLED=0 $(GO) build -trimpath -tags $(TAGS) -ldflags "$(LDFLAGS)" -o $@ ./helper

# Every test: the unit tests of each package and the end-to-end scripts against real tmux servers.
# The timeout is one the suite meets on two busy cores (go test's own default is 10 minutes).
TEST_TIMEOUT ?= 40m
test: lint
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./...

unit:
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./helper/...

e2e:
	$(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./tests/...

# The end-to-end suite against another tmux: make e2e-tmux TMUX_BIN=/path/to/bin/tmux. The tests
# and taw run the tmux first on PATH. test-tmux builds a release from the sources at
# TMUX_SOURCES first: make test-tmux TMUX_VERSION=3.4.
e2e-tmux:
	@test -x "$(TMUX_BIN)" || { echo "e2e-tmux: TMUX_BIN must name a tmux binary (got '$(TMUX_BIN)')"; exit 2; }
	@echo "end-to-end suite on $$("$(TMUX_BIN)" -V) ($(TMUX_BIN))"
	PATH="$(dir $(abspath $(TMUX_BIN))):$$PATH" $(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./tests/...

TMUX_SOURCES ?= ../shared/vendor/tmux
TMUX_CACHE   ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/taw-tmux
test-tmux:
	@test -n "$(TMUX_VERSION)" || { echo "test-tmux: say which release, e.g. make test-tmux TMUX_VERSION=3.4"; exit 2; }
	sh $(TMUX_SOURCES)/build.sh $(TMUX_VERSION) $(TMUX_CACHE)/$(TMUX_VERSION)
	$(MAKE) e2e-tmux TMUX_BIN=$(TMUX_CACHE)/$(TMUX_VERSION)/bin/tmux

# The live suite: the real agents pinned in tests/agents/agents.json, installed from npm into
# AGENTS_CACHE (never globally), each driven through its screens in a real tmux pane against the
# stand-in model server. TAW_AGENTS=claude,codex runs some; TAW_RECORD=1 rewrites their fixtures.
AGENTS_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/taw-agents
test-agents:
	command -v npm >/dev/null || { echo "test-agents needs npm (apt-get install npm)"; exit 1; }
	TAW_AGENTS_CACHE="$(AGENTS_CACHE)" $(GO) test -count=1 -tags liveagents -timeout 90m -v -run 'TestLiveAgents|TestLiveTruth|TestLiveMCP|TestLiveRestore' ./tests/agents/

bench: build
	$(GO) run ./tests/bench

# Builds taw and opens a tmux session (its own server, socket taw-demo) with the plugin loaded.
demo: build
	./scripts/demo.sh

lint:
	@out=$$(gofmt -l helper tests); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	bash -n taw.tmux scripts/*.sh

fmt:
	gofmt -w helper tests

clean:
	rm -rf bin
