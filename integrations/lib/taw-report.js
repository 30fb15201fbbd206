// taw-report.js: the reporter every taw JavaScript and TypeScript plugin shares. The plugins
// include it from the repository; `taw integration install` pastes it in place of their include
// line, so an installed plugin stands alone.
//
// It reports only inside a tmux pane, through the taw that installed it (else the tmux server's
// @agent-wizard-bin, else taw on PATH), runs one taw at a time in the background
// (five seconds at most), keeps only the latest report while one runs, ignores every failure and
// writes nothing to the agent's terminal. Its seq is the microseconds since the epoch when the
// plugin loaded, plus one for each report sent since.
import { execFileSync as tawExecSync, spawn as tawSpawn } from "node:child_process";
import { accessSync as tawAccess, constants as tawFs } from "node:fs";
import { delimiter as tawDelimiter, join as tawJoin } from "node:path";

// The taw that installed this plugin; `taw integration install` writes its absolute path here.
const tawInstalled = "__TAW_BIN__"; // taw-installed-bin

function tawExecutable(path) {
  try {
    tawAccess(path, tawFs.X_OK);
    return true;
  } catch {
    return false;
  }
}

// tawFind is the installing taw, else the one the tmux server's plugin runs, else taw on PATH:
// a plugin install of taw leaves it off PATH.
function tawFind() {
  if (tawExecutable(tawInstalled)) return tawInstalled;
  try {
    const bin = tawExecSync("tmux", ["show-options", "-gqv", "@agent-wizard-bin"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 2000,
    }).trim();
    if (bin && tawExecutable(bin)) return bin;
  } catch {
    // no tmux, or no answer
  }
  return tawFindOnPath("taw");
}

function tawFindOnPath(name) {
  for (const dir of (process.env.PATH || "").split(tawDelimiter)) {
    if (!dir) continue;
    const candidate = tawJoin(dir, name);
    try {
      tawAccess(candidate, tawFs.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

function tawReporter(agent) {
  const pane = process.env.TMUX_PANE || "";
  const taw = pane ? tawFind() : null;
  const source = "integration:" + agent;
  // performance.now() keeps the microseconds Date.now() drops.
  const base = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  let sent = 0;
  let running = false;
  let pending = null;

  function run(verb, args) {
    running = true;
    const argv = ["pane", verb, pane, "--seq", String(base + sent), ...args];
    sent += 1;
    let finished = false;
    let child = null;
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      running = false;
      if (pending) {
        const next = pending;
        pending = null;
        run(next.verb, next.args);
      }
    };
    const timer = setTimeout(() => {
      try {
        if (child) child.kill();
      } catch {
        // gone already
      }
      done();
    }, 5000);
    if (timer.unref) timer.unref();
    try {
      child = tawSpawn(taw, argv, { stdio: "ignore" });
      child.on("error", done);
      child.on("exit", done);
      child.unref();
    } catch {
      done();
    }
  }

  function queue(verb, args) {
    if (!taw) return;
    if (running) {
      // A newer report replaces the one waiting: only the latest state matters.
      pending = { verb, args };
      return;
    }
    run(verb, args);
  }

  // session: { id, path, resume: [command, ...args] }; the resume command goes only when its
  // command is on PATH, since taw refuses one it cannot find.
  function sessionArgs(session) {
    const args = [];
    if (!session) return args;
    if (session.id) args.push("--agent-session-id", String(session.id));
    if (session.path) args.push("--agent-session-path", String(session.path));
    if (session.resume && session.resume.length && tawFindOnPath(session.resume[0])) {
      args.push("--", ...session.resume.map(String));
    }
    return args;
  }

  return {
    enabled: Boolean(taw),
    // message says what the agent waits for; every report carries one, so none goes stale.
    state(state, session, message) {
      const text = String(message || "").replace(/[\u0000-\u001f\u007f]+/g, " ").trim().slice(0, 160);
      queue("report-agent", ["--source", source, "--agent", agent, "--state", state, "--message", text, ...sessionArgs(session)]);
    },
    release() {
      queue("release-agent", ["--source", source, "--agent", agent]);
    },
    // releaseAtExit releases the pane when the agent's process ends, for an agent whose
    // shutdown event also fires when it only moves to another session. An exit handler runs no
    // more callbacks, so the release is started detached, not queued.
    releaseAtExit() {
      if (!taw) return;
      process.once("exit", () => {
        try {
          const argv = ["pane", "release-agent", pane, "--seq", String(base + sent), "--source", source, "--agent", agent];
          sent += 1;
          tawSpawn(taw, argv, { stdio: "ignore", detached: true }).unref();
        } catch {
          // nothing to do at exit
        }
      });
    },
  };
}
