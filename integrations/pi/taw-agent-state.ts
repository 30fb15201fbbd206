// taw-integration-version: 2
//
// pi extension that tells taw what pi is doing in this tmux pane.
//
// Events: session_start (idle, with the session: pi fires it again after /new, /resume and a
// fork, with the new session), agent_start (working), agent_end (idle); the process's exit
// (release). session_shutdown is no quit: pi fires it on /new, /resume and reload too. No event
// says a select or confirm prompt is up: taw reads those off the screen.
//
// `taw integration install pi` copies it to $PI_CODING_AGENT_DIR/extensions
// (~/.pi/agent/extensions), where pi loads every extension at startup; no config changes.
// Resume command `pi --session <session file>`. Only the interactive pi reports: a `pi -p` run
// from a tool in the same pane is not the pane's agent.
//
// Plain JavaScript in a .ts file, so that it runs as it is under node too.

// taw:include lib/taw-report.js

export default function tawAgentState(pi) {
  const taw = tawReporter("pi");
  let interactive = true;

  const session = (ctx) => {
    const manager = ctx && ctx.sessionManager;
    if (!manager) return undefined;
    const path = typeof manager.getSessionFile === "function" ? manager.getSessionFile() : undefined;
    const id = typeof manager.getSessionId === "function" ? manager.getSessionId() : undefined;
    const ref = path || id;
    return ref ? { id, path, resume: ["pi", "--session", ref] } : undefined;
  };
  const report = (state) => (event, ctx) => {
    if (interactive) taw.state(state, session(ctx));
  };

  let releasing = false;
  pi.on("session_start", (event, ctx) => {
    interactive = !(ctx && ctx.hasUI === false);
    report("idle")(event, ctx);
    // Only the interactive pi holds the pane; it lets go when its process ends.
    if (interactive && !releasing) {
      releasing = true;
      taw.releaseAtExit();
    }
  });
  pi.on("agent_start", report("working"));
  pi.on("agent_end", report("idle"));
}
