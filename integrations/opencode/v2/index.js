// taw-integration-version: 2
//
// OpenCode plugin (the second plugin API: a definition with an id and setup(ctx)) that tells
// taw what OpenCode is doing in this tmux pane.
//
// Events, from ctx.event.subscribe(): session.created, session.status, session.idle,
// session.execution.started/succeeded/failed/interrupted, permission.asked/replied,
// question.asked/replied/rejected.
//
// `taw integration install opencode` copies it to $OPENCODE_CONFIG_DIR/plugins/taw-agent-state-v2.js
// (~/.config/opencode/plugins/), beside the first API's plugin: OpenCode loads only the files
// of {plugin,plugins}/*.{js,ts}, not subfolders. No config changes. Resume command
// `opencode --session <id>`.
//
// Each API loads both files. The default export is a function as well as a definition: a
// loader of the first API calls it and gets no hooks, one of the second reads id and setup;
// the first API's file exports nothing a loader of the second API takes for a definition.

// taw:include lib/taw-report.js
// taw:include lib/taw-opencode-events.js

async function setup(ctx) {
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
}

const TawAgentStateV2 = async () => ({});
TawAgentStateV2.id = "taw-agent-state";
TawAgentStateV2.setup = setup;
export default TawAgentStateV2;
