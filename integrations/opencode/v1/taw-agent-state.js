// taw-integration-version: 2
//
// OpenCode plugin (the first plugin API: a function returning hooks) that tells taw what
// OpenCode is doing in this tmux pane.
//
// Hooks: event (session.created, session.status, session.idle, session.error,
// session.compacted, permission.asked/updated/replied, question.asked/replied/rejected),
// chat.message and tool.execute.before.
//
// `taw integration install opencode` copies it to $OPENCODE_CONFIG_DIR/plugins
// (~/.config/opencode/plugins), where OpenCode loads every file at startup; no config changes.
// Reports: working when a prompt or tool runs, idle when the session is idle, blocked on a
// permission or question; resume command `opencode --session <id>`.

// taw:include lib/taw-report.js
// taw:include lib/taw-opencode-events.js

export const TawAgentState = async () => {
  const tracker = tawOpenCodeTracker(tawReporter("opencode"), ["opencode", "--session"]);
  return {
    event: async ({ event }) => {
      if (event && event.type) tracker.handle(event.type, event.properties);
    },
    "chat.message": async (input) => tracker.working(input && input.sessionID),
    "tool.execute.before": async (input) => tracker.working(input && input.sessionID),
  };
};
