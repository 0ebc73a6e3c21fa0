import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { streamModel } from "../../../src/core/ai/index.js";
import { collect, context } from "./providers/helpers.js";

const LLM_DIR = fileURLToPath(new URL("../../../src/core/ai/providers/", import.meta.url));

describe("streamModel", () => {
	it("answers an unsupported API with an error event instead of throwing", async () => {
		const model = {
			id: "x",
			name: "x",
			api: "gemini-generate",
			provider: "google",
			baseUrl: "http://127.0.0.1:9",
			reasoning: false,
			input: ["text" as const],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 1000,
			maxTokens: 100,
		};
		const { events, message } = await collect(streamModel(model, context(), { apiKey: "k" }));
		expect(events.map((e) => e.type)).toEqual(["start", "error"]);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/Unsupported API "gemini-generate"/);
	});

	it("loads the SDKs only inside the stream functions (loom --version stays fast)", async () => {
		const files = (await readdir(LLM_DIR)).filter((name) => name.endsWith(".ts"));
		const offenders: string[] = [];
		for (const file of files) {
			const source = await readFile(LLM_DIR + file, "utf8");
			// Type-only imports vanish at compile time; value imports would load the SDK at startup.
			if (/^import\s+(?!type\b)[^;]*from\s+"(@anthropic-ai\/sdk|openai)(\/[^"]*)?";/m.test(source)) offenders.push(file);
		}
		expect(offenders).toEqual([]);
	});
});
