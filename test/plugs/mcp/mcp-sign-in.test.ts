// Signing in to an HTTP MCP server in-process, against the local OAuth server: a new sign-in keeps the old
// login until it has new tokens, and a sign-in nobody finishes ends, closing its callback.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAuthFile } from "../../../src/core/ai/index.js";
import { signInToServer } from "../../../src/plugs/mcp/mcp-login-command.js";
import { startMcpOAuthServer, type McpOAuthServer } from "../../support/mcp-oauth-server.js";
import { playBrowser } from "../../support/plan-servers.js";
import { tempDir } from "../../support/temp-dir.js";
import { waitFor } from "../../support/wait-for.js";

let secure: McpOAuthServer;
beforeAll(async () => {
	secure = await startMcpOAuthServer();
});
afterAll(() => secure?.close());

/** Starts a sign-in; `page` resolves with the authorization URL it shows. */
function startSignIn(home: string, options: { signal?: AbortSignal; timeoutMs?: number } = {}) {
	const said: string[] = [];
	const done = signInToServer({ name: "secure", url: secure.mcpUrl, home, env: {}, say: (text) => void said.push(text), ...options });
	done.catch(() => {});
	const page = waitFor(() => said.join("\n"), (text) => /http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+/.test(text), { what: "the authorization URL" }).then(
		(text) => /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(text)![1]!,
	);
	return { done, page };
}

describe("MCP sign-in", () => {
	it("keeps the old login until a new sign-in has its tokens: a cancelled one leaves it working", async () => {
		const home = tempDir();
		const first = startSignIn(home);
		await playBrowser(await first.page);
		await first.done;
		const old = readAuthFile(home).mcp[secure.mcpUrl]!.tokens;
		expect(old?.access_token).toMatch(/^mcp-at-/);

		const controller = new AbortController();
		const second = startSignIn(home, { signal: controller.signal });
		await second.page;
		controller.abort();
		await expect(second.done).rejects.toThrow(/cancelled/);
		expect(readAuthFile(home).mcp[secure.mcpUrl]!.tokens).toEqual(old);

		const third = startSignIn(home);
		await playBrowser(await third.page);
		await third.done;
		expect(readAuthFile(home).mcp[secure.mcpUrl]!.tokens!.access_token).not.toBe(old!.access_token);
	});

	it("gives up on a sign-in nobody finishes, and closes its callback", async () => {
		const home = tempDir();
		const pending = startSignIn(home, { timeoutMs: 300 });
		const redirect = new URL(new URL(await pending.page).searchParams.get("redirect_uri")!);
		await expect(pending.done).rejects.toThrow(/not finished within/);
		await expect(fetch(redirect)).rejects.toThrow();
	});
});
