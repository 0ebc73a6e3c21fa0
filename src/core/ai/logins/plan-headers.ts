// The headers a plan's model requests carry besides the bearer token: read when a model is resolved, so this file
// holds only them (the sign-in flows are loaded when someone signs in or a token needs renewing).
import type { PlanLogin } from "./auth-file.js";

/** What Copilot's endpoints expect to hear from an editor (its token exchange too). */
export const COPILOT_EDITOR_HEADERS: Readonly<Record<string, string>> = {
	"User-Agent": "GitHubCopilotChat/0.35.0",
	"Editor-Version": "vscode/1.107.0",
	"Editor-Plugin-Version": "copilot-chat/0.35.0",
	"Copilot-Integration-Id": "vscode-chat",
};

/** The request headers of `provider`'s plan for this login; none for a provider without one. */
export function planRequestHeaders(provider: string, login: PlanLogin): Record<string, string> {
	if (provider === "github-copilot") return { ...COPILOT_EDITOR_HEADERS, "Openai-Intent": "conversation-edits" };
	if (provider === "chatgpt") {
		// The Codex backend serves the account the header names, and wants to know which client is asking.
		return { ...(login.accountId ? { "chatgpt-account-id": login.accountId } : {}), "OpenAI-Beta": "responses=experimental", originator: "loom" };
	}
	return {};
}
