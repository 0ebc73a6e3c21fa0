// The first request of a run goes out before Node's fetch implementation loads (the SDKs build it with loom's
// Headers: sdk-fetch-globals.ts), for every wire API, and its answer still arrives whole: the bundle as shipped.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runLoom, useScriptedServer } from "../../../support/loom-process.js";
import { tempDir } from "../../../support/temp-dir.js";

const server = useScriptedServer();
const recorder = join(ROOT, "test", "support", "first-request-modules.cjs");

const baseUrls = {
	"anthropic-messages": () => server.anthropicBaseUrl,
	"openai-completions": () => server.openaiBaseUrl,
	"openai-responses": () => server.openaiBaseUrl,
	"google-generative-ai": () => server.googleBaseUrl,
};

describe("the first request", () => {
	for (const [api, baseUrl] of Object.entries(baseUrls)) {
		it(`${api}: is written before fetch is loaded, and its answer is printed`, async () => {
			const home = tempDir();
			const cwd = join(home, "project");
			mkdirSync(cwd);
			writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { local: { baseUrl: baseUrl(), api, apiKey: "k", models: [{ id: "m" }] } } }));
			server.enqueue({ text: "the whole answer" });
			const log = join(home, "modules.txt");
			const result = await runLoom(["-p", "--no-session", "--provider", "local", "--model", "m", "hi"], {
				cwd,
				home,
				env: { NODE_OPTIONS: `--require=${recorder}`, LOOM_TEST_FIRST_REQUEST_LOG: log },
			});
			expect(result.stderr).toBe("");
			expect(result.stdout.trim()).toBe("the whole answer");
			expect(result.code).toBe(0);
			const modules = readFileSync(log, "utf8");
			expect(modules).toContain("NativeModule http");
			expect(modules).not.toContain("internal/deps/undici/undici");
		});
	}
});
