// End to end: `loom login` for a plan, then prompts answered through the plan's endpoint with the login's token and
// headers; a revoked login's message; `loom logout`; the picker and the refused subscriptions; Copilot's models in
// --list-models; and no token in any output or session file.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { authFilePath, readAuthFile } from "../../src/core/ai/index.js";
import { runLoomInProcess } from "../support/loom-in-process.js";
import type { CommandSession } from "../../src/core/session/index.js";
import { createAgentSession, SessionManager } from "../../src/sdk/index.js";
import { jsonLines, runLoom, sessionFiles, startLoom, useScriptedServer } from "../support/loom-process.js";
import { ScriptedUi } from "../support/scripted-ui.js";
import { playBrowser, startPlanServers, type PlanServers } from "../support/plan-servers.js";
import { workspace, type Workspace } from "../support/temp-dir.js";
import { waitFor } from "../support/wait-for.js";

const model = useScriptedServer();
let plans: PlanServers;

beforeAll(async () => {
	plans = await startPlanServers(model.url);
});
afterAll(() => plans?.close());

/** Every token the login holds, none of which may be printed or written to a session. */
function tokensOf(ws: Workspace): string[] {
	return Object.values(readAuthFile(ws.home).plans).flatMap((login) => [login.access, login.refresh]);
}

function expectNoToken(ws: Workspace, texts: string[]): void {
	const tokens = tokensOf(ws);
	expect(tokens.length).toBeGreaterThan(0);
	const sessions = sessionFiles(ws.home).map((file) => readFileSync(file, "utf8"));
	for (const text of [...texts, ...sessions]) for (const token of tokens) expect(text.includes(token), "a token was printed or stored in a session").toBe(false);
}

async function loginCopilot(ws: Workspace): Promise<string> {
	const run = startLoom(["login", "github-copilot"], { ...ws, env: plans.env });
	const stderr = await waitFor(() => run.stderr(), (text) => /enter the code GH-\d+/.test(text), { what: "the device code" });
	plans.approve(/enter the code (GH-\d+)/.exec(stderr)![1]!);
	const result = await run.done;
	expect(result.code, result.stderr).toBe(0);
	expect(result.stdout).toMatch(/^Signed in to GitHub Copilot\. Use it: loom --provider github-copilot/);
	return result.stdout + result.stderr;
}

describe("loom login", () => {
	it("signs in to GitHub Copilot by device code, then its requests carry Copilot's token and editor headers", async () => {
		const ws = workspace();
		const loginOutput = await loginCopilot(ws);
		// The model reads auth.json: what it gets back has the tokens masked.
		model.enqueue({ toolCalls: [{ name: "read", arguments: { path: authFilePath(ws.home) } }] }, { text: "copilot answer" });
		const result = await runLoom(["-p", "--provider", "github-copilot", "-m", "gpt-4.1", "hi"], { ...ws, env: plans.env });
		expect(result.stderr).toBe("");
		expect(result.stdout).toBe("copilot answer\n");
		const toolResult = JSON.stringify(plans.modelRequests.at(-1)!.body.messages.filter((message: { role: string }) => message.role === "tool"));
		expect(toolResult).toContain("***");
		for (const token of tokensOf(ws)) expect(toolResult.includes(token)).toBe(false);
		const request = plans.modelRequests.at(-1)!;
		expect(request.path).toBe("/copilot/chat/completions");
		expect(request.headers.authorization).toBe(`Bearer ${readAuthFile(ws.home).plans["github-copilot"]!.access}`);
		expect(request.headers).toMatchObject({ "editor-version": expect.stringMatching(/^vscode\//), "copilot-integration-id": "vscode-chat", "openai-intent": "conversation-edits" });
		expect(request.body.model).toBe("gpt-4.1");

		// The run says which credential it uses: in its events (the screen's footer reads them) and in /session.
		model.enqueue({ text: "json answer" });
		const json = await runLoom(["-p", "--mode", "json", "--provider", "github-copilot", "hi"], { ...ws, env: plans.env });
		expect(json.code, json.stderr).toBe(0);
		expect(jsonLines(json.stdout).find((event) => event.type === "session_open")).toMatchObject({ provider: "github-copilot", credential: "GitHub Copilot login" });
		const { session } = await createAgentSession({ cwd: ws.cwd, loomHome: ws.home, provider: "github-copilot", sessionManager: SessionManager.inMemory() });
		const notices: string[] = [];
		await session.commands.get("session")!.handler("", { session: session as CommandSession, notify: (_level, text) => void notices.push(text), busy: false });
		expect(notices.join("\n")).toMatch(/Model: github-copilot\/gpt-4\.1 · thinking \w+\nCredential: GitHub Copilot login/);
		await session.dispose();
		expectNoToken(ws, [loginOutput, result.stdout, result.stderr, json.stdout, json.stderr]);
	});

	it("signs in to ChatGPT by callback; requests go to the plan's Responses endpoint naming the account; a revoked login says to sign in again", async () => {
		const ws = workspace();
		const run = startLoom(["login", "chatgpt"], { ...ws, env: plans.env });
		const stderr = await waitFor(() => run.stderr(), (text) => /\/oauth\/authorize\?\S+/.test(text), { what: "the authorization URL" });
		await playBrowser(/(http:\/\/\S+\/oauth\/authorize\?\S+)/.exec(stderr)![1]!);
		const login = await run.done;
		expect(login.code, login.stderr).toBe(0);
		expect(login.stdout).toMatch(/^Signed in to ChatGPT \(account acct-/);

		model.enqueue({ text: "plan answer" });
		const answered = await runLoom(["-p", "--provider", "chatgpt", "hi"], { ...ws, env: plans.env });
		expect(answered.stderr).toBe("");
		expect(answered.stdout).toBe("plan answer\n");
		const request = plans.modelRequests.at(-1)!;
		expect(request.path).toBe("/backend-api/codex/responses");
		const stored = readAuthFile(ws.home).plans.chatgpt!;
		expect(request.headers.authorization).toBe(`Bearer ${stored.access}`);
		expect(request.headers["chatgpt-account-id"]).toBe(plans.accountId);
		expect(request.headers["openai-beta"]).toBe("responses=experimental");
		expect(request.body).toMatchObject({ model: "gpt-5.6-terra", stream: true, store: false });

		// Two minutes left: the run renews the token before its request, which carries the new one.
		writeFileSync(authFilePath(ws.home), JSON.stringify({ plans: { chatgpt: { ...stored, expires: Date.now() + 120_000 } }, mcp: {} }));
		model.enqueue({ text: "renewed answer" });
		const renewedRun = await runLoom(["-p", "--provider", "chatgpt", "hi"], { ...ws, env: plans.env });
		expect(renewedRun.stdout).toBe("renewed answer\n");
		expect(plans.grants.at(-1)).toBe("refresh_token");
		const renewed = readAuthFile(ws.home).plans.chatgpt!;
		expect(renewed.access).not.toBe(stored.access);
		expect(plans.modelRequests.at(-1)!.headers.authorization).toBe(`Bearer ${renewed.access}`);

		plans.revoke(renewed.access);
		const refused = await runLoom(["-p", "--provider", "chatgpt", "hi"], { ...ws, env: plans.env });
		expect(refused.code).toBe(1);
		expect(refused.stderr).toMatch(/401.*the ChatGPT login was refused: it expired or was revoked; run loom login chatgpt/);
		expectNoToken(ws, [login.stdout, login.stderr, answered.stdout, renewedRun.stdout, renewedRun.stderr, refused.stderr]);

		const out = await runLoomInProcess(["logout", "chatgpt"], ws);
		expect(out).toMatchObject({ code: 0, stdout: "Signed out: ChatGPT.\n" });
		expect(existsSync(authFilePath(ws.home))).toBe(false);
	});

	it("says to run loom login for a plan nobody signed in to", async () => {
		const ws = workspace();
		const result = await runLoom(["-p", "--provider", "chatgpt", "hi"], { ...ws, env: plans.env });
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/Not signed in to ChatGPT: run loom login chatgpt\./);
	});

	it("offers a picker, and refuses the Claude and Gemini subscriptions with the reason", async () => {
		const ws = workspace();
		const picked = await runLoomInProcess(["login"], { ...ws, input: "3\n" });
		expect(picked.stderr).toMatch(/1\. ChatGPT .*\n.*2\. GitHub Copilot .*\n.*3\. Claude/);
		expect(picked.code).toBe(1);
		expect(picked.stderr).toMatch(/loom does not sign in to Claude \(Pro, Max\): Anthropic's terms/);
		const google = await runLoomInProcess(["login", "google"], ws);
		expect(google.code).toBe(1);
		expect(google.stderr).toMatch(/Google's terms/);
		const unknown = await runLoomInProcess(["login", "nope"], ws);
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toMatch(/No login for "nope": choose chatgpt, github-copilot, anthropic, google/);
	});

	it("signs in from a session with /login: a picker dialog, the code as a notice, then the plan's model is usable", async () => {
		const ws = workspace();
		vi.stubEnv("LOOM_GITHUB_URL", plans.url);
		vi.stubEnv("LOOM_GITHUB_API_URL", plans.url);
		try {
			const ui = new ScriptedUi().choose(/Claude/).choose(/GitHub Copilot/);
			const { session } = await createAgentSession({ cwd: ws.cwd, loomHome: ws.home, provider: "github-copilot", sessionManager: SessionManager.inMemory(), ui });
			expect(session.modelError).toMatch(/Not signed in to GitHub Copilot: run loom login github-copilot/);
			const notices: string[] = [];
			const ctx = { session: session as CommandSession, notify: (_level: string, text: string) => void notices.push(text), busy: false, ui };
			const login = session.commands.get("login")!;
			await login.handler("", ctx);
			expect(notices.at(-1)).toMatch(/does not sign in to Claude \(Pro, Max\): Anthropic's terms/);
			const signingIn = login.handler("", ctx);
			const shown = await waitFor(() => notices.join("\n"), (text) => /enter the code GH-\d+/.test(text), { what: "the device code notice" });
			plans.approve(/enter the code (GH-\d+)/.exec(shown)![1]!);
			await signingIn;
			expect(notices.at(-1)).toMatch(/^Signed in to GitHub Copilot\./);
			expect(session.modelError).toBeUndefined();
			expect(session.credential).toBe("GitHub Copilot login");
			await session.dispose();
		} finally {
			vi.unstubAllEnvs();
		}
	});

	it("lists Copilot's models, with whether a login is at hand", async () => {
		const ws = workspace();
		const listed = await runLoomInProcess(["--list-models", "copilot"], ws);
		expect(listed.code).toBe(0);
		expect(listed.stdout).toMatch(/github-copilot\/gpt-4\.1/);
		expect(listed.stdout).toMatch(/github-copilot\/claude-sonnet-4\.5/);
	});
});
