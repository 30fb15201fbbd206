# taw-integration-version: 2
"""Hermes plugin that tells taw what Hermes is doing in this tmux pane.

Hooks: on_session_start and on_session_reset (idle, with the session), pre_llm_call and
pre_tool_call (working), post_llm_call and on_session_end (idle); the process's exit releases
the pane.

`taw integration install hermes` copies this folder to $HERMES_HOME/plugins/taw-agent-state
(~/.hermes/plugins/taw-agent-state) and enables it in config.yaml:

    plugins:
      enabled:
        - taw-agent-state

Resume command `hermes --resume <session id>`. Reports go to taw in the background, one at a
time, only the latest kept while one runs; their seq is the nanoseconds since the epoch. Nothing
is printed and no failure reaches Hermes. Only the interactive CLI reports: a gateway serves many
chats from one process and is no pane's agent.
"""

import atexit
import os
import shutil
import subprocess
import threading
import time

AGENT = "hermes"
SOURCE = "integration:" + AGENT


# The taw that installed this plugin; `taw integration install` writes its absolute path here.
_TAW_INSTALLED = "__TAW_BIN__"  # taw-installed-bin


def _find_taw():
    """The installing taw, else the tmux server's @agent-wizard-bin, else taw on PATH."""
    if os.access(_TAW_INSTALLED, os.X_OK):
        return _TAW_INSTALLED
    try:
        out = subprocess.run(["tmux", "show-options", "-gqv", "@agent-wizard-bin"], capture_output=True,
                             text=True, timeout=2).stdout.strip()
        if out and os.access(out, os.X_OK):
            return out
    except Exception:  # no tmux, or it did not answer
        pass
    return shutil.which("taw")


class Reporter:
    """Runs taw pane verbs in a background thread, keeping only the latest waiting report."""

    def __init__(self):
        self.pane = os.environ.get("TMUX_PANE", "")
        self.taw = _find_taw() if self.pane else None
        self._lock = threading.Lock()
        self._busy = False
        self._pending = None

    def send(self, verb, args):
        if not self.taw:
            return
        job = (time.time_ns(), verb, list(args))
        with self._lock:
            if self._busy:
                self._pending = job
                return
            self._busy = True
        threading.Thread(target=self._run, args=(job,), daemon=True).start()

    def _argv(self, job):
        seq, verb, args = job
        return [self.taw, "pane", verb, self.pane, "--seq", str(seq)] + args

    def _run(self, job):
        while job is not None:
            try:
                subprocess.run(self._argv(job), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=5, check=False)
            except Exception:  # taw missing, slow or failing: never the agent's problem
                pass
            with self._lock:
                job, self._pending = self._pending, None
                if job is None:
                    self._busy = False

    def send_detached(self, verb, args):
        """Starts a report that outlives this process, for the exit."""
        if not self.taw:
            return
        try:
            subprocess.Popen(self._argv((time.time_ns(), verb, list(args))), stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        except Exception:
            pass


_reporter = Reporter()
_state = {"session": "", "cli": True}


def _session_args(session_id):
    if not session_id:
        return []
    args = ["--agent-session-id", session_id]
    if shutil.which("hermes"):
        args += ["--", "hermes", "--resume", session_id]
    return args


def _report(state, session_id=None):
    if not _state["cli"]:
        return
    if session_id:
        _state["session"] = str(session_id)
    _reporter.send("report-agent", ["--source", SOURCE, "--agent", AGENT, "--state", state]
                   + _session_args(_state["session"]))


def _is_cli(kwargs):
    platform = kwargs.get("platform")
    return platform in (None, "", "cli")


def on_session_start(session_id=None, **kwargs):
    _state["cli"] = _is_cli(kwargs)
    _report("idle", session_id)


def on_session_reset(session_id=None, **kwargs):
    _report("idle", session_id)


def pre_llm_call(session_id=None, **kwargs):
    _report("working", session_id)


def pre_tool_call(session_id=None, **kwargs):
    _report("working", session_id)


def post_llm_call(session_id=None, **kwargs):
    _report("idle", session_id)


def on_session_end(session_id=None, **kwargs):
    _report("idle", session_id)


def _on_exit():
    if _state["cli"] and _state["session"]:
        _reporter.send_detached("release-agent", ["--source", SOURCE, "--agent", AGENT])


HOOKS = {
    "on_session_start": on_session_start,
    "on_session_reset": on_session_reset,
    "pre_llm_call": pre_llm_call,
    "pre_tool_call": pre_tool_call,
    "post_llm_call": post_llm_call,
    "on_session_end": on_session_end,
}


def register(ctx):
    """Hermes calls this once when it loads the plugin."""
    for name, hook in HOOKS.items():
        ctx.register_hook(name, hook)
    atexit.register(_on_exit)
