// End to end: a damaged session file (a corrupt line in the middle, two writers interleaved) is rebuilt along its
// parentId chain, and whatever is missing, the provider never receives an invalid sequence; each repair is reported.
import { readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { runLoom, serverFlags, useScriptedServer } from "../support/loom-process.js";
import { workspace } from "../support/temp-dir.js";

const server = useScriptedServer();

const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const meta = { api: "openai-completions", provider: "openai", model: "scripted", usage, timestamp: 1 };

const user = (text: string) => ({ role: "user", content: text, timestamp: 1 });
const answer = (text: string) => ({ role: "assistant", content: [{ type: "text", text }], stopReason: "stop", ...meta });
const call = (id: string) => ({
	role: "assistant",
	content: [{ type: "toolCall", id, name: "read", arguments: { path: "x.txt" } }],
	stopReason: "toolUse",
	...meta,
});
const result = (id: string, text: string) => ({ role: "toolResult", toolCallId: id, toolName: "read", content: [{ type: "text", text }], isError: false, timestamp: 1 });

type Line = { id: string; parent: string | null; message: object } | string;

/** A session file from entries (id, parent, message) and raw lines (damage), in file order. */
function sessionFile(ws: { cwd: string }, lines: Line[]): string {
	const file = join(ws.cwd, "damaged.jsonl");
	const header = { type: "session", version: 1, id: "0b7e1f4e-0000-4000-8000-000000000001", created: "2026-01-01T00:00:00.000Z", cwd: ws.cwd };
	const text = lines.map((line, n) =>
		typeof line === "string"
			? line
			: JSON.stringify({ type: "message", id: line.id, parentId: line.parent, timestamp: "2026-01-01T00:00:00.000Z", n: n + 1, message: line.message }),
	);
	writeFileSync(file, `${[JSON.stringify(header), ...text].join("\n")}\n`);
	return file;
}

/** Runs one more prompt on the file; returns stderr and the roles/contents the provider received. */
async function resume(ws: { cwd: string; home: string }, file: string) {
	server.enqueue({ text: "fine" });
	const run = await runLoom(["-p", "--session", file, ...serverFlags(server.openaiBaseUrl), "next question"], ws);
	expect(run.code).toBe(0);
	const sent = server.requests.at(-1)!.body.messages.filter((m: any) => m.role !== "system");
	return { stderr: run.stderr, sent, roles: sent.map((m: any) => m.role) as string[] };
}

/** What every provider accepts: a user first, no two answers in a row, every tool result right after its call. */
function expectValidSequence(sent: any[]): void {
	expect(sent[0].role).toBe("user");
	const open = new Set<string>();
	sent.forEach((message, i) => {
		if (message.role === "assistant") {
			expect(sent[i - 1].role).not.toBe("assistant");
			expect(open.size).toBe(0);
			for (const toolCall of message.tool_calls ?? []) open.add(toolCall.id);
		} else if (message.role === "tool") {
			expect(open.delete(message.tool_call_id)).toBe(true);
		} else {
			expect(open.size).toBe(0);
		}
	});
}

describe("resuming a damaged session", () => {
	it("a corrupt first user message: the answer is not sent first; a placeholder stands for the lost message", async () => {
		const ws = workspace();
		const file = sessionFile(ws, [
			'{"type":"message","id":"u1","parentId":null,"timest',
			{ id: "a1", parent: "u1", message: answer("Paris.") },
			{ id: "u2", parent: "a1", message: user("and its population?") },
			{ id: "a2", parent: "u2", message: answer("About 2 million.") },
		]);
		const { stderr, sent, roles } = await resume(ws, file);
		expectValidSequence(sent);
		expect(roles).toEqual(["user", "assistant", "user", "assistant", "user"]);
		expect(sent[1].content).toBe("Paris.");
		expect(stderr).toMatch(/warning: .*line 2 is not valid JSON; it was skipped/);
		expect(stderr).toMatch(/warning: .*began with an answer.*placeholder/);
	});

	it("two writers interleaved: the conversation follows the parentId chain to the last entry", async () => {
		const ws = workspace();
		const file = sessionFile(ws, [
			{ id: "u1", parent: null, message: user("capital of France?") },
			{ id: "a1", parent: "u1", message: answer("Paris.") },
			{ id: "uA", parent: "a1", message: user("question from A") },
			{ id: "uB", parent: "a1", message: user("question from B") },
			{ id: "aA", parent: "uA", message: answer("answer to A") },
			{ id: "aB", parent: "uB", message: answer("answer to B") },
		]);
		const { stderr, sent, roles } = await resume(ws, file);
		expectValidSequence(sent);
		expect(roles).toEqual(["user", "assistant", "user", "assistant", "user"]);
		expect(sent.map((m: any) => m.content)).toEqual(["capital of France?", "Paris.", "question from B", "answer to B", "next question"]);
		expect(stderr).toMatch(/warning: .*2 entries .* not on the conversation's chain .*left out/);
	});

	it("a lost message between two answers: a placeholder user message keeps them apart", async () => {
		const ws = workspace();
		const file = sessionFile(ws, [
			{ id: "u1", parent: null, message: user("capital of France?") },
			{ id: "a1", parent: "u1", message: answer("Paris.") },
			"{not json at all",
			{ id: "a2", parent: "u2", message: answer("About 2 million.") },
		]);
		const { stderr, sent, roles } = await resume(ws, file);
		expectValidSequence(sent);
		expect(roles).toEqual(["user", "assistant", "user", "assistant", "user"]);
		expect(sent[3].content).toBe("About 2 million.");
		expect(stderr).toMatch(/warning: .*two answers in a row.*placeholder/);
	});

	it("a lost tool call: its result is dropped; a lost result: an error result stands in", async () => {
		const ws = workspace();
		const file = sessionFile(ws, [
			{ id: "u1", parent: null, message: user("read x twice") },
			'{"type":"message","id":"c1","parentId":"u1","message":{"role":"assistant","content":[{"type":"toolCall","id":"call_1"',
			{ id: "r1", parent: "c1", message: result("call_1", "first read") },
			{ id: "c2", parent: "r1", message: call("call_2") },
			"garbage where the second result was",
			{ id: "a1", parent: "r2", message: answer("Done.") },
		]);
		const { stderr, sent, roles } = await resume(ws, file);
		expectValidSequence(sent);
		expect(roles).toEqual(["user", "assistant", "tool", "assistant", "user"]);
		expect(JSON.stringify(sent)).not.toContain("first read");
		expect(sent[2]).toMatchObject({ role: "tool", tool_call_id: "call_2" });
		expect(stderr).toMatch(/warning: .*a tool result without its call .*dropped/);
		expect(stderr).toMatch(/warning: .*a tool call without its result .*error result/);
	});

	it("an intact session loads without a warning and sends exactly what was recorded", async () => {
		const ws = workspace();
		const file = sessionFile(ws, [
			{ id: "u1", parent: null, message: user("read x") },
			{ id: "c1", parent: "u1", message: call("call_1") },
			{ id: "r1", parent: "c1", message: result("call_1", "x") },
			{ id: "a1", parent: "r1", message: answer("It says x.") },
		]);
		const { stderr, roles } = await resume(ws, file);
		expect(stderr).toBe("");
		expect(roles).toEqual(["user", "assistant", "tool", "assistant", "user"]);
	});
});

describe("a session file whose header id is no session id", () => {
	it("is refused by name on resume and on --export, with nothing written outside the folder", async () => {
		for (const id of ["a/../../escaped", "..", "x\\y"]) {
			const ws = workspace();
			const file = join(ws.cwd, "forged.jsonl");
			const header = { type: "session", version: 1, id, created: "2026-01-01T00:00:00.000Z", cwd: ws.cwd };
			const entry = { type: "message", id: "e1", parentId: null, timestamp: "2026-01-01T00:00:00.000Z", n: 1, message: user("hi") };
			writeFileSync(file, `${JSON.stringify(header)}\n${JSON.stringify(entry)}\n`);
			const refusal = `loom: ${file} is not a loom session file: its header's id ${JSON.stringify(id)} is not a session id (letters, digits, "-" and "_").`;

			const resumed = await runLoom(["-p", "--session", file, ...serverFlags(server.openaiBaseUrl), "next"], ws);
			expect({ id, code: resumed.code, first: resumed.stderr.split("\n")[0] }).toEqual({ id, code: 2, first: refusal });
			expect(server.requests).toHaveLength(0);

			const exported = await runLoom(["--export", file], ws);
			expect({ id, code: exported.code, first: exported.stderr.split("\n")[0] }).toEqual({ id, code: 2, first: refusal });
			expect(readdirSync(dirname(ws.cwd)).filter((name) => name.endsWith(".html"))).toEqual([]);
			expect(readdirSync(ws.cwd)).toEqual(["forged.jsonl"]);
		}
	});
});
