// The plans' sign-ins against local servers playing OpenAI's and GitHub's parts: by callback (the test plays the
// browser) and by device code, the Copilot token exchange, renewal before expiry, a revoked login, signing out.
import { readFileSync, statSync, writeFileSync, existsSync, mkdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authFilePath, freshPlanLogin, loginChoices, readAuthFile, REFRESH_MARGIN_MS, signIn, signOut, type LoginInstructions } from "../../../../src/core/ai/index.js";
import { playBrowser, startPlanServers, type PlanServers } from "../../../support/plan-servers.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../../../support/scripted-model-server.mjs";
import { tempDir } from "../../../support/temp-dir.js";
import { waitFor } from "../../../support/wait-for.js";

let model: ScriptedModelServer;
let plans: PlanServers;

beforeAll(async () => {
	model = await startScriptedModelServer();
	plans = await startPlanServers(model.url);
});
afterAll(async () => {
	await plans?.close();
	await model?.close();
});

/** An io whose show() hands the instructions to the test. */
function io() {
	const shown: LoginInstructions[] = [];
	return { shown, io: { show: (instructions: LoginInstructions) => void shown.push(instructions), env: plans.env } };
}

describe("plan logins", () => {
	it("signs in to ChatGPT by callback with PKCE and keeps the login in auth.json, readable by its owner only", async () => {
		const home = tempDir();
		const { shown, io: flowIo } = io();
		const login = signIn(home, "chatgpt", "browser", flowIo);
		const [page] = await waitFor(() => shown, (list) => list.length > 0, { what: "the authorization URL" });
		const url = new URL(page!.url);
		expect(url.origin + url.pathname).toBe(`${plans.url}/oauth/authorize`);
		expect(url.searchParams.get("redirect_uri")).toMatch(/^http:\/\/localhost:\d+\/auth\/callback$/);
		const back = await playBrowser(page!.url);
		expect(back).toEqual({ status: 200, text: expect.stringContaining("Signed in") });
		const stored = await login;
		expect(stored.accountId).toBe(plans.accountId);
		expect(statSync(authFilePath(home)).mode & 0o777).toBe(0o600);
		expect(readAuthFile(home).plans.chatgpt).toEqual(stored);
	});

	it("refuses a callback whose state is not the sign-in's own", async () => {
		const home = tempDir();
		const { shown, io: flowIo } = io();
		const controller = new AbortController();
		const login = signIn(home, "chatgpt", "browser", { ...flowIo, signal: controller.signal });
		const [page] = await waitFor(() => shown, (list) => list.length > 0, { what: "the authorization URL" });
		const redirect = new URL(new URL(page!.url).searchParams.get("redirect_uri")!.replace("localhost", "127.0.0.1"));
		const forged = await fetch(`${redirect}?code=stolen&state=other`);
		expect(forged.status).toBe(400);
		controller.abort();
		await expect(login).rejects.toThrow(/cancelled/);
		expect(existsSync(authFilePath(home))).toBe(false);
	});

	it("signs in to ChatGPT by device code on a host without a browser", async () => {
		const home = tempDir();
		const { shown, io: flowIo } = io();
		const login = signIn(home, "chatgpt", "device", flowIo);
		const [page] = await waitFor(() => shown, (list) => list.length > 0, { what: "the device code" });
		expect(page!.url).toBe(`${plans.url}/codex/device`);
		expect(page!.code).toMatch(/^OA-/);
		plans.approve(page!.code!);
		expect((await login).accountId).toBe(plans.accountId);
	});

	it("signs in to GitHub Copilot by device flow and exchanges the GitHub token for Copilot's, keeping the endpoint it names", async () => {
		const home = tempDir();
		const { shown, io: flowIo } = io();
		const login = signIn(home, "github-copilot", undefined, flowIo);
		const [page] = await waitFor(() => shown, (list) => list.length > 0, { what: "the device code" });
		expect(page).toEqual({ url: `${plans.url}/login/device`, code: expect.stringMatching(/^GH-/) });
		plans.approve(page!.code!);
		const stored = await login;
		expect(stored.refresh).toMatch(/^gho_/);
		expect(stored.access).toMatch(/^tid=/);
		expect(stored.baseUrl).toBe(`${plans.url}/copilot`);
		expect(stored.expires).toBeGreaterThan(Date.now() + REFRESH_MARGIN_MS);
	});

	it("renews a token before it expires, and leaves one with time left alone", async () => {
		const home = tempDir();
		const { shown, io: flowIo } = io();
		const login = signIn(home, "github-copilot", undefined, flowIo);
		plans.approve((await waitFor(() => shown, (list) => list.length > 0))[0]!.code!);
		const first = await login;
		const exchanges = plans.calls.get("/copilot_internal/v2/token") ?? 0;
		expect((await freshPlanLogin(home, "github-copilot", plans.env)).access).toBe(first.access);
		expect(plans.calls.get("/copilot_internal/v2/token")).toBe(exchanges);
		// Two minutes left: inside the margin, so the next request gets a new token first.
		const file = JSON.parse(readFileSync(authFilePath(home), "utf8"));
		file.plans["github-copilot"].expires = Date.now() + 2 * 60_000;
		writeFileSync(authFilePath(home), JSON.stringify(file));
		const renewed = await freshPlanLogin(home, "github-copilot", plans.env);
		expect(renewed.access).not.toBe(first.access);
		expect(renewed.refresh).toBe(first.refresh);
		expect(plans.calls.get("/copilot_internal/v2/token")).toBe(exchanges + 1);
		expect(readAuthFile(home).plans["github-copilot"]!.access).toBe(renewed.access);
	});

	it("renews a ChatGPT login once when several requests near its expiry ask for it together (its refresh token is used once)", async () => {
		const home = tempDir();
		const { shown, io: flowIo } = io();
		const login = signIn(home, "chatgpt", "device", flowIo);
		plans.approve((await waitFor(() => shown, (list) => list.length > 0))[0]!.code!);
		const stored = await login;
		const file = readAuthFile(home);
		file.plans.chatgpt!.expires = Date.now() + 60_000;
		writeFileSync(authFilePath(home), JSON.stringify(file));
		const before = plans.calls.get("/oauth/token") ?? 0;
		const renewed = await Promise.all([1, 2, 3, 4].map(() => freshPlanLogin(home, "chatgpt", plans.env)));
		expect(plans.calls.get("/oauth/token")).toBe(before + 1);
		expect(new Set(renewed.map((entry) => entry.access)).size).toBe(1);
		expect(renewed[0]!.access).not.toBe(stored.access);
		expect(readAuthFile(home).plans.chatgpt!.access).toBe(renewed[0]!.access);
	});

	it("refuses a sign-in server's answer over 1 MB instead of reading it all", async () => {
		const huge = createServer((_request, response) => {
			response.writeHead(200, { "Content-Type": "application/json" });
			response.end(`{"access_token":"${"x".repeat(3 * 1024 * 1024)}"}`);
		});
		await new Promise<void>((resolve) => huge.listen(0, "127.0.0.1", resolve));
		try {
			const home = tempDir();
			const { shown, io: flowIo } = io();
			const login = signIn(home, "chatgpt", "device", flowIo);
			plans.approve((await waitFor(() => shown, (list) => list.length > 0))[0]!.code!);
			await login;
			const file = readAuthFile(home);
			file.plans.chatgpt!.expires = Date.now() - 1000;
			writeFileSync(authFilePath(home), JSON.stringify(file));
			const env = { ...plans.env, LOOM_CHATGPT_AUTH_URL: `http://127.0.0.1:${(huge.address() as AddressInfo).port}` };
			await expect(freshPlanLogin(home, "chatgpt", env)).rejects.toThrow(/ChatGPT token refresh: the answer from http:\/\/127\.0\.0\.1:\d+ is over 1 MB/);
		} finally {
			huge.closeAllConnections();
			await new Promise((resolve) => huge.close(resolve));
		}
	});

	it("says to run loom login when the plan no longer takes the login's refresh token", async () => {
		const home = tempDir();
		const { shown, io: flowIo } = io();
		const login = signIn(home, "chatgpt", "device", flowIo);
		plans.approve((await waitFor(() => shown, (list) => list.length > 0))[0]!.code!);
		const stored = await login;
		plans.revoke(stored.refresh);
		const file = readAuthFile(home);
		file.plans.chatgpt!.expires = Date.now() - 1000;
		writeFileSync(authFilePath(home), JSON.stringify(file));
		const failure = freshPlanLogin(home, "chatgpt", plans.env);
		await expect(failure).rejects.toThrow(/^The ChatGPT login has expired or was revoked \(.*invalid_grant.*\): run loom login chatgpt to sign in again\.$/);
		await expect(failure).rejects.not.toThrow(stored.refresh);
	});

	it("signs out of one plan, and removes auth.json with the last login", () => {
		const home = tempDir();
		mkdirSync(home, { recursive: true });
		const login = { access: "a".repeat(20), refresh: "r".repeat(20), expires: Date.now() + 3_600_000 };
		writeFileSync(authFilePath(home), JSON.stringify({ plans: { chatgpt: login, "github-copilot": login }, mcp: {} }));
		expect(signOut(home, "chatgpt")).toEqual(["chatgpt"]);
		expect(Object.keys(readAuthFile(home).plans)).toEqual(["github-copilot"]);
		expect(signOut(home, "chatgpt")).toEqual([]);
		expect(signOut(home)).toEqual(["github-copilot"]);
		expect(existsSync(authFilePath(home))).toBe(false);
		// A file that is not loom's JSON: a request says so, and signing out of everything removes it.
		writeFileSync(authFilePath(home), "{not json");
		expect(() => readAuthFile(home)).toThrow(/auth\.json is not valid JSON: remove it \(loom logout\)/);
		signOut(home);
		expect(existsSync(authFilePath(home))).toBe(false);
	});

	it("offers ChatGPT and Copilot, and refuses Claude and Gemini subscriptions saying why", async () => {
		const choices = loginChoices();
		expect(choices.filter((choice) => !choice.refused).map((choice) => choice.provider)).toEqual(["chatgpt", "github-copilot"]);
		expect(choices.find((choice) => choice.provider === "anthropic")?.refused).toMatch(/terms.*ANTHROPIC_API_KEY/);
		expect(choices.find((choice) => choice.provider === "google")?.refused).toMatch(/terms.*GEMINI_API_KEY/);
		await expect(signIn(tempDir(), "anthropic", undefined, io().io)).rejects.toThrow(/does not sign in to Claude.*terms/);
	});
});
