// taw-integration-version: 2
//
// omp (oh-my-pi) extension that tells taw what omp is doing in this tmux pane.
//
// Events: session_start, session_switch (idle, with the session), agent_start (working),
// tool_approval_requested (blocked), tool_approval_resolved (working), tool_call of the ask tool
// (blocked), agent_end (idle), session_shutdown (release).
//
// `taw integration install omp` copies it to the extensions folder of omp's agent directory
// ($PI_CODING_AGENT_DIR, else ~/$PI_CONFIG_DIR/agent, else ~/.omp/agent), where omp loads every
// extension at startup; no config changes. Resume command `omp --resume=<session file>`. Only
// the interactive omp reports.
//
// Plain JavaScript in a .ts file, so that it runs as it is under node too.

// taw:include lib/taw-report.js

export default function tawAgentState(pi) {
  const taw = tawReporter("omp");
  let interactive = true;
  let lastCtx;

  const session = (ctx) => {
    const manager = (ctx && ctx.sessionManager) || (lastCtx && lastCtx.sessionManager);
    if (!manager) return undefined;
    const path = typeof manager.getSessionFile === "function" ? manager.getSessionFile() : undefined;
    const id = typeof manager.getSessionId === "function" ? manager.getSessionId() : undefined;
    const ref = path || id;
    return ref ? { id, path, resume: ["omp", "--resume=" + ref] } : undefined;
  };
  const report = (state, message) => (event, ctx) => {
    if (ctx) lastCtx = ctx;
    if (interactive) taw.state(state, session(ctx), message && message(event || {}));
  };

  pi.on("session_start", (event, ctx) => {
    interactive = !(ctx && ctx.hasUI === false);
    report("idle")(event, ctx);
  });
  pi.on("session_switch", report("idle"));
  pi.on("agent_start", report("working"));
  pi.on("agent_end", report("idle"));
  pi.on("tool_approval_requested", report("blocked", (e) => (e.toolName ? "Allow " + e.toolName + "?" : "")));
  pi.on("tool_approval_resolved", report("working"));
  pi.on("tool_call", (event, ctx) => {
    // omp asks the user through its ask tool.
    if (event && event.toolName === "ask") report("blocked")(event, ctx);
  });
  pi.on("session_shutdown", () => {
    if (interactive) taw.release();
  });
}
