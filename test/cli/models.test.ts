// The command and models: --list-models, -m with an unknown id, and the new APIs end to end. What reads only the
// command's own environment and files runs in-process through the CLI's I/O seam; a session reads the process's
// environment (its keys and base URLs), so the cases that set one run the built loom.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { workspace, type Workspace } from "../support/temp-dir.js";
import { runLoomInProcess } from "../support/loom-in-process.js";
import { runLoom, useScriptedServer } from "../support/loom-process.js";

const server = useScriptedServer();

function modelsJson(ws: Workspace, name = "Coder 14B"): void {
	const providers = { local: { baseUrl: server.openaiBaseUrl, apiKey: "ollama", models: [{ id: "coder:14b", name, contextWindow: 32768 }] } };
	writeFileSync(join(ws.home, "models.json"), JSON.stringify({ providers }));
}

describe("loom --list-models", () => {
	it("lists the catalog's and models.json's models with provider, window and whether a key is set, and what to set", async () => {
		const ws = workspace();
		modelsJson(ws);
		const result = await runLoomInProcess(["--list-models"], { ...ws, env: { GOOGLE_API_KEY: "g-key" } });

		expect(result.code).toBe(0);
		const lines = result.stdout.split("\n");
		expect(lines[0]).toMatch(/^MODEL +NAME +CONTEXT +KEY$/);
		expect(lines).toContainEqual(expect.stringMatching(/^anthropic\/claude-sonnet-5-5 +Claude Sonnet 5\.5 +1\.0M +missing$/));
		expect(lines).toContainEqual(expect.stringMatching(/^openai\/gpt-5\.6-terra +GPT-5\.6 Terra +1\.0M +missing$/));
		expect(lines).toContainEqual(expect.stringMatching(/^google\/gemini-3\.1-pro +Gemini 3\.1 Pro +1\.0M +set$/));
		expect(lines).toContainEqual(expect.stringMatching(/^local\/coder:14b +Coder 14B +33k +set$/));
		expect(result.stderr).not.toContain('provider "google"');
		expect(server.requests).toHaveLength(0);
	});

	it("writes the table alone on stdout; what to set for the keyless providers goes to stderr", async () => {
		const ws = workspace();
		const result = await runLoomInProcess(["--list-models"], { ...ws, env: { GOOGLE_API_KEY: "g-key" } });
		expect(result.code).toBe(0);
		const lines = result.stdout.trimEnd().split("\n");
		expect(lines[0]).toMatch(/^MODEL +NAME +CONTEXT +KEY$/);
		expect(lines.slice(1).every((line) => /^[\w-]+\/\S+ .* (set|missing)$/.test(line))).toBe(true);
		expect(result.stderr).toBe(
			'loom: No API key for provider "anthropic": set ANTHROPIC_API_KEY or pass --api-key.\n' +
				'loom: No API key for provider "openai": set OPENAI_API_KEY or pass --api-key.\n',
		);
	});

	it("counts --api-key for the provider it applies to, and lists the model in use at --base-url", async () => {
		const ws = workspace();
		const result = await runLoomInProcess(["--list-models", "--provider", "openai", "-m", "scripted", "--base-url", server.openaiBaseUrl, "--api-key", "k"], ws);
		expect(result.code).toBe(0);
		const lines = result.stdout.split("\n");
		expect(lines[1]).toMatch(/^openai\/scripted +scripted +128k +set$/);
		expect(lines).toContainEqual(expect.stringMatching(/^openai\/gpt-5\.6-terra +GPT-5\.6 Terra +1\.0M +set$/));
		expect(lines).toContainEqual(expect.stringMatching(/^anthropic\/claude-sonnet-5-5 +Claude Sonnet 5\.5 +1\.0M +missing$/));
		expect(result.stderr).not.toContain('provider "openai"');
		expect(result.stderr).toContain('provider "anthropic"');

		// Without --provider or -m, the key is for the provider loom would use: the default one here.
		const bare = await runLoomInProcess(["--list-models", "claude", "--api-key", "k"], ws);
		expect(bare.stdout).toMatch(/^anthropic\/claude-sonnet-5-5 +Claude Sonnet 5\.5 +1\.0M +set$/m);
		expect(bare.stderr).toBe("");
		expect(server.requests).toHaveLength(0);
	});

	it("refuses an unknown -m or --provider beside it as a usage error", async () => {
		const ws = workspace();
		const result = await runLoomInProcess(["--list-models", "-m", "gpt-5.6-tera"], ws);
		expect(result.code).toBe(2);
		expect(result.stdout).toBe("");
		expect(result.stderr).toMatch(/^loom: --model: Unknown model "gpt-5\.6-tera"\. Closest known: openai\/gpt-5\.6-terra\./);
	});

	it("lists only the models matching a search, and says when none does", async () => {
		const ws = workspace();
		const gemini = await runLoomInProcess(["--list-models", "GEMINI"], ws);
		expect(gemini.code).toBe(0);
		const rows = gemini.stdout.split("\n").filter((line) => /^\w+\//.test(line));
		expect(rows.length).toBeGreaterThan(1);
		expect(rows.every((row) => row.startsWith("google/gemini-"))).toBe(true);
		expect(gemini.stderr).toBe('loom: No API key for provider "google": set GEMINI_API_KEY (or GOOGLE_API_KEY) or pass --api-key.\n');

		const none = await runLoomInProcess(["--list-models", "gpt-5.6-tera"], ws);
		expect(none.code).toBe(1);
		expect(none.stdout).toBe("");
		expect(none.stderr).toBe('loom: no known model matches "gpt-5.6-tera". Closest known: openai/gpt-5.6-terra. loom --list-models lists them all.\n');
	});

	it("shows a models.json name without its escape sequences", async () => {
		const ws = workspace();
		modelsJson(ws, "evil\x1b]0;pwned\x07\x1b[31m name");
		const result = await runLoomInProcess(["--list-models", "local"], ws);
		expect(result.code).toBe(0);
		expect(result.stdout).toMatch(/^local\/coder:14b +evil.*name +33k +set$/m);
		expect(result.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
	});
});

describe("loom -m", () => {
	it("refuses an id it does not know as a usage error (exit 2), naming the closest known ones, and sends nothing", async () => {
		const ws = workspace();
		const result = await runLoom(["-p", "-m", "gpt-5.6-tera", "hi"], { ...ws, env: { OPENAI_API_KEY: "k" } });
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/^loom: --model: Unknown model "gpt-5\.6-tera"\. Closest known: openai\/gpt-5\.6-terra\. /);
		expect(result.stderr).toMatch(/\n\(run loom --help for usage\)\n$/);
		expect(server.requests).toHaveLength(0);
	});

	it("refuses an unknown provider as a usage error too, in JSON mode as in text mode", async () => {
		const ws = workspace();
		const provider = await runLoomInProcess(["-p", "--provider", "nope", "hi"], ws);
		expect(provider.code).toBe(2);
		expect(provider.stderr).toMatch(/^loom: --provider: Unknown provider "nope"\. Known providers: anthropic, openai, google, chatgpt, github-copilot\./);
		const prefixed = await runLoomInProcess(["--mode", "json", "-m", "nope/x", "hi"], ws);
		expect(prefixed.code).toBe(2);
		expect(prefixed.stdout).toBe("");
		expect(prefixed.stderr).toMatch(/^loom: --model: Unknown provider "nope" in "nope\/x"/);
		expect(server.requests).toHaveLength(0);
	});

	it("still opens with a known model whose key is missing, and says what to set (exit 1, not a usage error)", async () => {
		const ws = workspace();
		const result = await runLoom(["-p", "-m", "gpt-5.6-terra", "hi"], ws);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain('No API key for provider "openai": set OPENAI_API_KEY or pass --api-key.');
	});

	it("takes any id under a provider: a models.json one, or provider/id", async () => {
		const ws = workspace();
		modelsJson(ws);
		server.enqueue({ text: "from the local server" });
		const result = await runLoomInProcess(["-p", "-m", "local/not-listed:7b", "hi"], ws);
		expect(result.stderr).toBe("");
		expect(result.stdout).toBe("from the local server\n");
		expect(server.requests[0]!.body.model).toBe("not-listed:7b");
	});

	it("talks to a catalog GPT over the Responses API and to Gemini over streamGenerateContent", async () => {
		const ws = workspace();
		server.enqueue({ thinking: "Reasoning quietly.", text: "Responses here." }, { text: "Gemini here." });
		const gpt = await runLoom(["-p", "-m", "gpt-5.6-terra", "--thinking", "low", "hi"], {
			...ws,
			env: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: server.openaiBaseUrl },
		});
		expect(gpt.stderr).toBe("");
		expect(gpt.stdout).toBe("Responses here.\n");
		const gemini = await runLoom(["-p", "-m", "gemini-3.5-flash", "hi"], { ...ws, env: { GEMINI_API_KEY: "k", GEMINI_BASE_URL: server.googleBaseUrl } });
		expect(gemini.stderr).toBe("");
		expect(gemini.stdout).toBe("Gemini here.\n");
		expect(server.requests.map((request) => request.path)).toEqual(["/v1/responses", "/v1beta/models/gemini-3.5-flash:streamGenerateContent"]);
		expect(server.requests[0]!.body.reasoning).toEqual({ effort: "low", summary: "auto" });
	});
});
