// taw-integration-version: 1
//
// pi extension that tells taw what pi is doing in this tmux pane.
//
// Events: session_start, session_switch (idle, with the session), agent_start (working),
// agent_end (idle), session_shutdown (release).
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

  pi.on("session_start", (event, ctx) => {
    interactive = !(ctx && ctx.hasUI === false);
    report("idle")(event, ctx);
  });
  pi.on("session_switch", report("idle"));
  pi.on("agent_start", report("working"));
  pi.on("agent_end", report("idle"));
  pi.on("session_shutdown", () => {
    if (interactive) taw.release();
  });
}
