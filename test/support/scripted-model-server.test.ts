import { type ChildProcess, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { streamModel } from "../../src/core/ai/index.js";
import { collect, context, serverModel, TEST_KEY } from "../core/ai/providers/helpers.js";
import { startScriptedModelServer } from "./scripted-model-server.mjs";
import { tempDir } from "./temp-dir.js";

const SCRIPT = fileURLToPath(new URL("./scripted-model-server.mjs", import.meta.url));
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Starts the server as its own process and waits for the line announcing its URL. */
async function startStandalone(args: string[]): Promise<{ url: string; child: ChildProcess }> {
	const child = spawn(process.execPath, [SCRIPT, "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
	cleanups.push(
		() =>
			new Promise((resolve) => {
				if (child.exitCode !== null) return resolve(undefined);
				child.once("exit", resolve);
				child.kill("SIGTERM");
			}),
	);
	const url = await new Promise<string>((resolve, reject) => {
		let out = "";
		let err = "";
		const timer = setTimeout(() => reject(new Error(`no listening line; stdout=${out} stderr=${err}`)), 10_000);
		child.stderr!.on("data", (chunk) => (err += chunk));
		child.stdout!.on("data", (chunk) => {
			out += chunk;
			const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
			if (match) {
				clearTimeout(timer);
				resolve(match[1]!);
			}
		});
		child.once("exit", (code) => reject(new Error(`exited ${code}: ${err}`)));
	});
	return { url, child };
}

describe("scripted model server", () => {
	it("runs standalone: --script turns, then turns posted to /__script, then the default answer; /__requests records all", async () => {
		const dir = tempDir("loom-scripted-");
		const script = join(dir, "turns.json");
		await writeFile(script, JSON.stringify([{ text: "from the script file" }]));
		const { url } = await startStandalone(["--script", script]);

		const posted = await fetch(`${url}/__script`, { method: "POST", body: JSON.stringify([{ text: "posted later" }]) });
		expect(await posted.json()).toEqual({ queued: 2 });

		const fake = { url, anthropicBaseUrl: url, openaiBaseUrl: `${url}/v1` } as Parameters<typeof serverModel>[0];
		const texts: string[] = [];
		for (const api of ["openai-completions", "anthropic-messages", "openai-completions"] as const) {
			const { message } = await collect(streamModel(serverModel(fake, api), context(`ask ${texts.length}`), { apiKey: TEST_KEY }));
			texts.push((message.content[0] as { text: string }).text);
		}
		expect(texts).toEqual(["from the script file", "posted later", "ok"]);

		const requests = (await (await fetch(`${url}/__requests`)).json()) as any[];
		expect(requests.map((r) => [r.format, r.body.messages.at(-1).content])).toEqual([
			["openai", "ask 0"],
			["anthropic", [{ type: "text", text: "ask 1", cache_control: { type: "ephemeral" } }]],
			["openai", "ask 2"],
		]);
		// Keys are never recorded.
		expect(JSON.stringify(requests)).not.toContain(TEST_KEY);
		expect(requests[0].headers.authorization).toBe("[redacted]");
	});

	it("loads a --responder module for dynamic answers", async () => {
		const dir = tempDir("loom-scripted-");
		const responder = join(dir, "echo.mjs");
		await writeFile(
			responder,
			"export default (body) => { const last = body.messages.at(-1); return { text: `echo: ${typeof last.content === 'string' ? last.content : last.content[0].text}` }; };\n",
		);
		const { url } = await startStandalone(["--responder", responder]);
		const fake = { url, anthropicBaseUrl: url, openaiBaseUrl: `${url}/v1` } as Parameters<typeof serverModel>[0];
		const { message } = await collect(streamModel(serverModel(fake, "anthropic-messages"), context("ping"), { apiKey: TEST_KEY }));
		expect(message.content).toEqual([{ type: "text", text: "echo: ping" }]);
	});

	it("streams endlessly at a given pace until the client goes away, then serves the next request", async () => {
		const server = await startScriptedModelServer();
		cleanups.push(() => server.close());
		server.enqueue({ endless: true, text: "token ", chunkSize: 6, tokensPerSecond: 500 });
		const controller = new AbortController();
		const stream = streamModel(serverModel(server, "openai-completions"), context(), { apiKey: TEST_KEY, signal: controller.signal });
		let deltas = 0;
		for await (const event of stream) {
			if (event.type === "text_delta" && ++deltas === 40) controller.abort();
		}
		const message = await stream.result();
		expect(message.stopReason).toBe("aborted");
		expect((message.content[0] as { text: string }).text.startsWith("token token token")).toBe(true);

		const next = await collect(streamModel(serverModel(server, "openai-completions"), context(), { apiKey: TEST_KEY }));
		expect(next.message.content).toEqual([{ type: "text", text: "ok" }]);
	});

	it("closes promptly even while a response is hanging", async () => {
		const server = await startScriptedModelServer({ turns: [{ hangMs: 60_000 }] });
		const pending = fetch(`${server.url}/v1/messages`, { method: "POST", body: JSON.stringify({ model: "m", messages: [] }) }).catch(
			(error: Error) => error,
		);
		await server.waitForRequests(1);
		const started = Date.now();
		await server.close();
		expect(Date.now() - started).toBeLessThan(1000);
		expect(await pending).toBeInstanceOf(Error);
	});
});
