// End to end: settings.json's `compaction` reaches the session, and JSON mode shows the compaction events.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SUMMARY_SYSTEM_PROMPT } from "../../src/core/session/index.js";
import { workspace } from "../support/temp-dir.js";
import { jsonLines, runLoom, sessionFiles, useScriptedServer } from "../support/loom-process.js";

const server = useScriptedServer();

describe("loom --mode json with a small context window", () => {
	function setUp(compaction: Record<string, unknown>) {
		const ws = workspace();
		const models = [{ id: "small", contextWindow: 4000, maxTokens: 1000 }];
		const providers = { local: { baseUrl: server.openaiBaseUrl, api: "openai-completions", apiKey: "sk-local-test", models } };
		writeFileSync(join(ws.home, "models.json"), JSON.stringify({ providers }));
		writeFileSync(join(ws.home, "settings.json"), JSON.stringify({ compaction }));
		writeFileSync(join(ws.cwd, "notes.txt"), `${"n".repeat(79)}\n`.repeat(60));
		server.setResponder((body) => {
			const system = body.messages?.find((message: any) => message.role === "system" || message.role === "developer");
			return system?.content === SUMMARY_SYSTEM_PROMPT ? { text: "## Goal\nCLI SUMMARY" } : undefined;
		});
		for (let i = 0; i < 4; i++) server.enqueue({ toolCalls: [{ id: `call_${i}`, name: "read", arguments: { path: "notes.txt" } }] });
		server.enqueue({ text: "Read it four times." });
		return ws;
	}
	const args = ["--mode", "json", "--provider", "local", "--model", "small", "read notes.txt four times"];
	const isCompactionEvent = (event: any) => event.type === "compaction_start" || event.type === "compaction_end";

	it("compacts during the run as settings.json says and prints compaction_start / compaction_end", async () => {
		const ws = setUp({ reserveTokens: 1000, keepRecentTokens: 800 });
		const result = await runLoom(args, ws);

		expect(result.stderr).toBe("");
		expect(result.code).toBe(0);
		const events = jsonLines(result.stdout);
		const compaction = events.filter(isCompactionEvent);
		expect(compaction.length).toBeGreaterThanOrEqual(2);
		expect(compaction[0]).toEqual({ type: "compaction_start", reason: "threshold" });
		expect(compaction[1]).toMatchObject({ type: "compaction_end", reason: "threshold", aborted: false, summary: expect.stringContaining("CLI SUMMARY") });
		expect(events.at(-2)).toMatchObject({ type: "agent_end" });
		expect(events.at(-1)).toMatchObject({ type: "run_end", status: "done" });
		const [file] = sessionFiles(ws.home);
		const lines = readFileSync(file!, "utf8").trim().split("\n").map((line) => JSON.parse(line));
		expect(lines.filter((line) => line.type === "compaction").length).toBe(compaction.length / 2);
		expect(lines.filter((line) => line.type === "message")).toHaveLength(1 + 4 * 2 + 1);
	});

	it("does not compact with compaction.enabled false in settings.json", async () => {
		const ws = setUp({ enabled: false });
		const result = await runLoom(args, ws);
		expect(result.code).toBe(0);
		expect(jsonLines(result.stdout).filter(isCompactionEvent)).toEqual([]);
		expect(server.requests.some((request) => JSON.stringify(request.body).includes("CLI SUMMARY"))).toBe(false);
		expect(server.requests).toHaveLength(5);
	});
});
