// Door of the logins: plans signed in to instead of an API key (ChatGPT, GitHub Copilot), the tokens MCP servers'
// OAuth gives, and auth.json, which keeps both. Only the file and the headers are loaded at start; the flows when used.
export { authFilePath, authFileSecrets, readAuthFile, updateAuthFile, type AuthFile, type McpServerLogin, type PlanLogin } from "./auth-file.js";
export type { LoginInstructions, LoginIo, LoginMethod } from "./login-types.js";
export { listenForCode, type Callback } from "./oauth-callback.js";
export { createPkce, randomState, SIGN_IN_TIMEOUT_MS } from "./oauth-http.js";
export { planRequestHeaders } from "./plan-headers.js";
export { freshPlanLogin, isPlanProvider, loginChoices, loginProblem, planTitle, REFRESH_MARGIN_MS, signIn, signOut, type LoginChoice } from "./plan-logins.js";
