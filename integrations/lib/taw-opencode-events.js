// taw-opencode-events.js: how OpenCode's events (and Kilo's, which shares them) map to taw's
// states, for both generations of OpenCode's plugin API. Included by the OpenCode and Kilo
// plugins after taw-report.js.
//
// Only the session the user works in sets the state: a subagent's child session changes nothing,
// except that a permission or a question it asks blocks the pane all the same.

function tawOpenCodeTracker(taw, resumeCommand) {
  const children = new Set();
  let current = "";

  const session = (id) => (id ? { id, resume: [...resumeCommand, id] } : undefined);
  const report = (state, id, message) => {
    if (id && children.has(id)) {
      if (state !== "blocked") return;
      id = current;
    }
    if (id) current = id;
    taw.state(state, session(current), message);
  };

  // What a permission or question asks, from its structured fields: "Allow bash(rm -rf x)?",
  // or the first question.
  const asks = (type, body) => {
    if (type.startsWith("question.")) {
      const q = Array.isArray(body.questions) && body.questions[0];
      return (q && (q.question || q.header)) || "question";
    }
    const tool = body.permission || body.type || body.tool || "";
    const patterns = Array.isArray(body.patterns) ? body.patterns.filter(Boolean) : body.pattern ? [].concat(body.pattern) : [];
    if (!tool) return body.title || "";
    return patterns.length ? "Allow " + tool + "(" + patterns.join(" ") + ")?" : "Allow " + tool + "?";
  };

  // handle takes an event's type, its payload (properties in the first API, data in the
  // second) and the session it names.
  function handle(type, body) {
    body = body || {};
    const info = body.info || {};
    const id = body.sessionID || info.sessionID || (type.startsWith("session.") ? info.id : "") || "";
    switch (type) {
      case "session.created": {
        const created = info.id || body.sessionID;
        if (info.parentID || body.parentID) {
          if (created) children.add(created);
          return;
        }
        report("idle", created);
        return;
      }
      case "session.status": {
        const status = (body.status && body.status.type) || body.status || "";
        if (status === "idle") report("idle", id);
        else if (status) report("working", id);
        return;
      }
      case "session.idle":
      case "session.error":
      case "session.execution.succeeded":
      case "session.execution.failed":
      case "session.execution.interrupted":
        report("idle", id);
        return;
      case "session.execution.started":
      case "session.compacted":
      case "permission.replied":
      case "question.replied":
      case "question.rejected":
        report("working", id);
        return;
      case "permission.asked":
      case "permission.updated":
      case "question.asked":
        report("blocked", id, asks(type, body));
        return;
      case "session.deleted":
        children.delete(id);
        return;
    }
  }

  return { handle, working: (id) => report("working", id) };
}
