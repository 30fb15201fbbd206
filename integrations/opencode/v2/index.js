// taw-integration-version: 1
//
// OpenCode plugin (the second plugin API: a definition with an id and setup(ctx)) that tells
// taw what OpenCode is doing in this tmux pane.
//
// Events, from ctx.event.subscribe(): session.created, session.status, session.idle,
// session.execution.started/succeeded/failed/interrupted, permission.asked/replied,
// question.asked/replied/rejected.
//
// `taw integration install opencode` copies it to $OPENCODE_CONFIG_DIR/plugins/taw-agent-state/
// index.js (~/.config/opencode/plugins/...), the folder OpenCode 2 discovers plugins in; no
// config changes. Resume command `opencode --session <id>`.

// taw:include lib/taw-report.js
// taw:include lib/taw-opencode-events.js

export default {
  id: "taw-agent-state",
  async setup(ctx) {
    if (!ctx || !ctx.event || typeof ctx.event.subscribe !== "function") return;
    const tracker = tawOpenCodeTracker(tawReporter("opencode"), ["opencode", "--session"]);
    const controller = new AbortController();
    // Not awaited: OpenCode waits for setup before it finishes loading plugins.
    (async () => {
      try {
        for await (const event of ctx.event.subscribe({ signal: controller.signal })) {
          if (event && event.type) tracker.handle(event.type, event.data);
        }
      } catch {
        // The stream ends with the server or on cleanup.
      }
    })();
    return () => controller.abort();
  },
};
