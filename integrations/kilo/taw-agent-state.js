// taw-integration-version: 2
//
// Kilo Code CLI plugin (OpenCode's first plugin API, which Kilo shares) that tells taw what Kilo
// is doing in this tmux pane.
//
// Hooks: event (session.created, session.status, session.idle, session.error,
// session.compacted, permission.asked/updated/replied, question.asked/replied/rejected),
// chat.message and tool.execute.before.
//
// `taw integration install kilo` copies it to $KILO_CONFIG_DIR/plugin (~/.config/kilo/plugin),
// where Kilo loads every file at startup; no config changes. Resume command
// `kilo --session <id>`.

// taw:include lib/taw-report.js
// taw:include lib/taw-opencode-events.js

export const TawAgentState = async () => {
  const tracker = tawOpenCodeTracker(tawReporter("kilo"), ["kilo", "--session"]);
  return {
    event: async ({ event }) => {
      if (event && event.type) tracker.handle(event.type, event.properties);
    },
    "chat.message": async (input) => tracker.working(input && input.sessionID),
    "tool.execute.before": async (input) => tracker.working(input && input.sessionID),
  };
};
