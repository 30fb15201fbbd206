//go:build liveagents

package agents

import (
	"path/filepath"
	"testing"
	"time"
)

// The flows: for each agent, the screens the suite drives it through and the state taw must
// read on each. Typed words choose what the stand-in answers (see package standin): TOOL asks
// for a shell command, ASK for a question, PLAN for a plan, FAIL an HTTP 400, RETRY an HTTP 500
// that the agent retries, SLOW a long answer.
var flows = map[string]flow{
	"claude": {
		env: func(home, url string) []string {
			return []string{"ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=sk-ant-standin-0000", "DISABLE_AUTOUPDATER=1",
				"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}
		},
		// Without the onboarding done, Claude Code checks that it reaches api.anthropic.com and
		// exits when it cannot.
		setup: func(t *testing.T, home, url string) {
			write(t, filepath.Join(home, ".claude.json"), `{"hasCompletedOnboarding":true,"theme":"dark"}`)
		},
		steps: []step{
			// 2.1.3xx: the trust dialog's choice is "No, exit" until the person moves it.
			{screen: "trust", wait: `Yes, I trust this folder`, want: "blocked"},
			// A Down sent as the dialog is drawn is dropped: it goes again until the cursor moved.
			{keys: []string{"Down"}, again: true, wait: `❯ Yes, I trust this folder`},
			{screen: "api-key", keys: []string{"Enter"}, wait: `Do you want to use this API key\?`, want: "blocked"},
			// It starts in auto mode, where a tool call may run with no dialog: one Shift+Tab
			// reaches manual mode, which asks.
			{screen: "prompt", keys: []string{"Up", "Enter"}, wait: `auto mode on`, want: "idle"},
			{keys: []string{"BTab"}, wait: `manual mode on`},
			{screen: "after-turn", text: "say hello", wait: `Hello from the stand-in model[\s\S]*\? for shortcuts`, want: "idle"},
			{screen: "permission-bash", text: "run a TOOL", wait: `Do you want to proceed\?`, want: "blocked"},
			{keys: []string{"1"}, pause: time.Second, wait: `Done\.[\s\S]*\? for shortcuts`},
			{screen: "question", text: "ASK me", wait: `Enter to select`, want: "blocked"},
			{keys: []string{"Enter"}, pause: time.Second, wait: `Done\.[\s\S]*\? for shortcuts`},
			{screen: "slow-stream", text: "answer SLOW", wait: `esc to interrupt`, want: "working"},
			{screen: "after-esc", keys: []string{"Escape"}, wait: `Interrupted`, want: "idle"},
			{screen: "after-error", keys: []string{"C-u"}, text: "FAIL now", wait: `API Error: 400[\s\S]*\? for shortcuts`, want: "idle"},
			{screen: "retrying", text: "RETRY now", wait: `(?i)retrying in`, want: "working"},
			{keys: []string{"Escape", "C-u"}, wait: `\? for shortcuts`, gone: `(?i)retrying in`},
			{screen: "model-picker-opened", text: "/model", wait: `Select model`, want: "idle"},
			{keys: []string{"Escape"}, wait: `\? for shortcuts`},
			// Plan mode is two Shift+Tabs away from manual mode (auto, manual, accept edits, plan).
			{keys: []string{"BTab", "BTab"}, wait: `plan mode on`},
			{screen: "plan-approval", text: "PLAN it", wait: `Exit plan mode\?`, want: "blocked"},
		},
	},
	"codex": {
		env: func(home, url string) []string { return []string{"STANDIN_API_KEY=sk-standin"} },
		setup: func(t *testing.T, home, url string) {
			write(t, filepath.Join(home, ".codex", "config.toml"), `model = "gpt-5"
model_provider = "standin"
check_for_update_on_startup = false
approval_policy = "on-request"
sandbox_mode = "read-only"

[model_providers.standin]
name = "standin"
base_url = "`+url+`/v1"
env_key = "STANDIN_API_KEY"
wire_api = "responses"
`)
			// New hooks make Codex ask, at start, whether to trust them.
			write(t, filepath.Join(home, ".codex", "hooks.json"), `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`)
		},
		steps: []step{
			{screen: "trust", wait: `Trust this folder\?`, want: "blocked"},
			{screen: "hooks-review", keys: []string{"Enter"}, wait: `Hooks need review`, want: "blocked"},
			{screen: "composer-start", keys: []string{"Down", "Enter"}, wait: `(?m)^› `, want: "idle"},
			{screen: "after-turn", text: "say hello", wait: `Hello from the stand-in model[\s\S]*Worked for`, want: "idle"},
			{screen: "permission-command", text: "run a TOOL", wait: `Would you like to run the following command\?`, want: "blocked"},
			{keys: []string{"y"}, wait: `Done\.`},
			{screen: "slow-stream", text: "answer SLOW", wait: `Thinking\.\.`, want: "working"},
			{screen: "after-esc", keys: []string{"Escape"}, wait: `Conversation interrupted`, want: "idle"},
			{screen: "reconnecting", text: "RETRY now", wait: `Reconnecting\.\.\.`, want: "working"},
			{keys: []string{"Escape"}, wait: `Conversation interrupted[\s\S]*Conversation interrupted`},
			{screen: "after-error", text: "FAIL now", wait: `the stand-in refused`, want: "idle"},
			{keys: []string{"BTab"}, wait: `Plan mode`},
			{screen: "question", text: "ASK me", wait: `enter to submit answer`, want: "blocked"},
			{keys: []string{"Enter", "Enter"}, wait: `Done\.`},
			{screen: "plan-approval", text: "PLAN it", wait: `Implement this plan\?`, want: "blocked"},
			{keys: []string{"Down", "Down", "Enter", "BTab"}, wait: `(?m)^› `},
			{screen: "model-picker-opened", text: "/model", wait: `Select Model`, want: "idle"},
		},
	},
	"gemini": {
		env: func(home, url string) []string {
			return []string{"GEMINI_API_KEY=standin-key", "GOOGLE_GEMINI_BASE_URL=" + url}
		},
		setup: func(t *testing.T, home, url string) {
			write(t, filepath.Join(home, ".gemini", "settings.json"), `{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false}
}`)
		},
		steps: []step{
			{screen: "trust", wait: `Do you trust the files in this folder\?`, want: "blocked"},
			// Gemini CLI restarts itself once the folder is trusted.
			// The old dialog stays drawn until the restarted CLI redraws the screen.
			{screen: "prompt", keys: []string{"Enter"}, wait: `Type your message`, gone: `Do you trust the files in this folder\?`, want: "idle", within: 2 * time.Minute},
			{screen: "after-turn", text: "say hello", wait: `Hello from the stand-in model`, want: "idle"},
			{screen: "permission-shell", text: "run a TOOL", wait: `Allow execution`, want: "blocked"},
			{keys: []string{"Enter"}, wait: `Done\.`},
			{screen: "question", text: "ASK me", wait: `Answer Questions`, want: "blocked"},
			{keys: []string{"Enter"}, wait: `User answered`},
			{screen: "slow-stream", text: "answer SLOW", wait: `esc to cancel, \d+s`, want: "working"},
			{screen: "after-esc", keys: []string{"Escape"}, wait: `Type your message`, want: "idle"},
			{screen: "after-error", text: "FAIL now", wait: `request failed`, want: "idle"},
			{screen: "retrying", text: "RETRY now", wait: `esc to cancel, \d+s`, want: "working"},
			{keys: []string{"Escape"}, wait: `Type your message`},
			{screen: "model-picker-opened", text: "/model", wait: `Select Model`, want: "idle"},
		},
	},
	"copilot": {
		env: func(home, url string) []string {
			return []string{"COPILOT_AUTO_UPDATE=false", "COPILOT_PROVIDER_BASE_URL=" + url + "/v1", "COPILOT_PROVIDER_TYPE=openai",
				"COPILOT_PROVIDER_API_KEY=sk-standin", "COPILOT_MODEL=gpt-5"}
		},
		steps: []step{
			{screen: "trust", wait: `Do you trust the files in this folder\?`, want: "blocked", within: 2 * time.Minute},
			{screen: "prompt", keys: []string{"1"}, wait: `Manual Approval`, want: "idle"},
			{screen: "permission-shell", text: "run a TOOL", wait: `Do you want to run this command\?`, want: "blocked"},
			{keys: []string{"Enter"}, wait: `Done\.`},
			{screen: "question", text: "ASK me", wait: `Copilot needs information`, want: "blocked", within: 2 * time.Minute},
			{keys: []string{"Escape"}, wait: `Manual Approval`},
			{screen: "slow-stream", text: "answer SLOW", wait: `Working`, want: "working"},
			{keys: []string{"Escape", "Escape"}, wait: `Manual Approval`, within: 2 * time.Minute},
			{screen: "after-error", text: "FAIL now", wait: `400 the stand-in refused[\s\S]*Manual Approval`, want: "idle"},
			{screen: "retrying", text: "RETRY now", wait: `Retrying|Working`, want: "working"},
		},
	},
	"opencode": {
		env: func(home, url string) []string { return []string{"OPENCODE_DISABLE_AUTOUPDATE=1"} },
		setup: func(t *testing.T, home, url string) {
			write(t, filepath.Join(home, ".config", "opencode", "opencode.json"), opencodeConfig(url, `
  "$schema": "https://opencode.ai/config.json",
  "share": "disabled",`))
		},
		steps: concat(opencodeOpening, []step{
			{screen: "question", text: "ASK me", wait: `enter confirm`, want: "blocked"},
			{keys: []string{"Escape"}, wait: `ctrl\+p commands`},
			// The footer names the folder again once the turn is over.
			{screen: "after-error", text: "FAIL now", wait: `the stand-in refused[\s\S]*repo\s+\S*\s*ctrl\+p commands`, want: "idle"},
			{screen: "retrying", text: "RETRY now", wait: `retrying in`, want: "working"},
		}),
	},
	"kilo": {
		setup: func(t *testing.T, home, url string) {
			write(t, filepath.Join(home, ".config", "kilo", "kilo.json"), opencodeConfig(url, ""))
		},
		steps: concat(opencodeOpening, []step{
			{screen: "progress", text: "answer SLOW", wait: `esc interrupt`, want: "working"},
		}),
	},
	"pi": {
		setup: func(t *testing.T, home, url string) {
			write(t, filepath.Join(home, ".pi", "agent", "models.json"), `{"providers": {"standin": {"baseUrl": "`+url+`/v1",
  "api": "openai-completions", "apiKey": "sk-standin", "models": [{"id": "standin-model", "name": "Stand-in model"}]}}}`)
		},
		steps: []step{
			{wait: `pi v0\.`, within: 2 * time.Minute},
			{screen: "login-select", text: "/login", wait: `escape/ctrl\+c cancel`, want: "blocked"},
			{keys: []string{"Escape"}, wait: `standin-model`},
			{screen: "after-turn", text: "say hello", wait: `Hello from the stand-in model`, want: "idle"},
			{screen: "slow-stream", text: "answer SLOW", wait: `Working`, want: "working"},
		},
	},
	"qwen": {
		env: func(home, url string) []string {
			return []string{"OPENAI_API_KEY=sk-standin", "OPENAI_BASE_URL=" + url + "/v1", "OPENAI_MODEL=standin-model"}
		},
		setup: func(t *testing.T, home, url string) {
			write(t, filepath.Join(home, ".qwen", "settings.json"), `{
  "security": {"auth": {"selectedType": "openai"}},
  "model": {"name": "standin-model"},
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false}
}`)
		},
		steps: []step{
			{screen: "prompt-start", wait: `Type your message`, want: "idle", within: 2 * time.Minute},
			// It starts in its auto mode; three Shift+Tabs reach the mode that asks.
			{keys: []string{"BTab", "BTab", "BTab"}, wait: `Ask permissions`},
			{screen: "permission-shell", text: "run a TOOL", wait: `Allow execution`, want: "blocked"},
			{keys: []string{"Enter"}, wait: `Done\.`},
			{screen: "after-error", text: "FAIL now", wait: `API Error: 400`, want: "idle"},
			{screen: "slow-stream", text: "answer SLOW", wait: `esc to cancel\)`, want: "working"},
		},
	},
	"auggie": {
		// A session naming the stand-in as Augment's server gets past the log-in; the stand-in
		// does not speak Augment's chat API, so a turn ends in an error.
		env: func(home, url string) []string {
			return []string{`AUGMENT_SESSION_AUTH={"accessToken":"standin","tenantURL":"` + url + `/","scopes":["email"]}`}
		},
		steps: []step{
			{screen: "onboarding", wait: `Press return to continue, or esc to skip`, want: "blocked", within: 2 * time.Minute},
			{keys: []string{"Escape"}, wait: `Choose an option`},
			{screen: "indexing-choice", wait: `\[Enter\] Confirm`, want: "blocked"},
			{screen: "prompt", keys: []string{"4"}, wait: `\? to show shortcuts`, want: "idle"},
			{screen: "sending-request", text: "say hello", wait: `esc to interrupt`, want: "working"},
		},
	},
	"droid": {
		steps: []step{
			{screen: "login", wait: `Please login with your Factory account`, want: "blocked", within: 2 * time.Minute},
			{screen: "sign-in-failed-press-enter", keys: []string{"Enter"}, wait: `Press Enter to try again`, want: "blocked"},
		},
	},
	"cline": {
		steps: []step{
			{screen: "sign-in-menu", wait: `Connect a model provider`, want: "blocked", within: 2 * time.Minute},
			{screen: "provider-picker", keys: []string{"Down", "Down", "Down", "Enter"}, wait: `Search providers`, want: "blocked"},
			{typed: "OpenAI Compatible", wait: `Choose a provider`},
			{screen: "provider-config", keys: []string{"Enter"}, wait: `Tab to switch fields`, want: "blocked"},
			{keys: []string{"C-u"}, wait: `Base URL`},
			{typed: "{url}/v1", wait: `127\.0\.0\.1`},
			{keys: []string{"Tab", "Tab"}, wait: `API key`},
			{typed: "sk-standin", wait: `sk-standin`},
			{screen: "set-model-id", keys: []string{"Enter"}, wait: `Set model ID`, want: "blocked"},
			// A promotion may wait for a key first; Escape closes it and is harmless at the prompt.
			{keys: []string{"Enter"}, wait: `any other key to close|What can I do for you`},
			{keys: []string{"Escape"}, wait: `What can I do for you|Ask anything`},
			{keys: []string{"BTab"}, wait: `Auto-approve all disabled`},
			{screen: "permission-command", text: "run a TOOL", wait: `Approve tool call\?`, want: "blocked"},
			{keys: []string{"y"}, wait: `Ask anything`},
			{screen: "slow-stream", text: "answer SLOW", wait: `Thinking\.`, want: "working"},
		},
	},
	"amp": {
		steps: []step{
			{screen: "login-question", wait: `Would you like to log in to Amp\?`, want: "blocked", within: 2 * time.Minute},
		},
	},
}

// Kilo is a fork of OpenCode: the two share a config (opencodeConfig) and their first screens
// (opencodeOpening), up to a shell command allowed.

// opencodeConfig is OpenCode's or Kilo's config with the stand-in as its model, every tool asking
// first, and no update; head holds the fields of the one agent's own.
func opencodeConfig(url, head string) string {
	return `{` + head + `
  "autoupdate": false,
  "model": "standin/standin-model",
  "permission": {"bash": "ask", "edit": "ask"},
  "provider": ` + standinProvider(url) + `
}`
}

var opencodeOpening = []step{
	{screen: "prompt-start", wait: `Ask anything`, want: "idle", within: 2 * time.Minute},
	{screen: "permission-shell", text: "run a TOOL", wait: `Permission required`, want: "blocked", within: 3 * time.Minute},
	{keys: []string{"Enter"}, wait: `Done\.`},
}

// concat is a flow's steps: the shared ones first, then its own.
func concat(shared, own []step) []step { return append(append([]step(nil), shared...), own...) }

// standinProvider is the stand-in as an OpenAI-compatible provider of OpenCode's and Kilo's config.
func standinProvider(url string) string {
	return `{
    "standin": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "Stand-in",
      "options": {"baseURL": "` + url + `/v1", "apiKey": "sk-standin"},
      "models": {"standin-model": {"name": "Stand-in model", "tool_call": true}}
    }
  }`
}
