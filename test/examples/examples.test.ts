// Every program in examples/ runs against the scripted model server, as a reader would run it: the SDK examples
// with jiti (importing "loom" by name, as an installed package), the extension examples with `loom -e`, in print
// mode and in the screen.
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runLoom, serverFlags, useScriptedServer } from "../support/loom-process.js";
import { workspace, type Workspace } from "../support/temp-dir.js";
import { TmuxTerminal, hasTmux, loomCommand } from "../support/tmux-terminal.js";

const server = useScriptedServer();
const JITI = join(ROOT, "node_modules", "jiti", "lib", "jiti-cli.mjs");

/** A workspace whose loom home's settings name the scripted model, with its endpoint and key in the environment. */
function setUp(): Workspace {
	const ws = workspace();
	writeFileSync(join(ws.home, "settings.json"), JSON.stringify({ provider: "openai", model: "scripted" }));
	return ws;
}

async function runExample(name: string, ws: Workspace, args: string[] = []): Promise<{ stdout: string; stderr: string }> {
	const env = {
		PATH: process.env.PATH ?? "/usr/bin:/bin",
		HOME: join(ws.home, "user-home"),
		LOOM_HOME: ws.home,
		OPENAI_BASE_URL: server.openaiBaseUrl,
		OPENAI_API_KEY: "test-key",
	};
	const { stdout, stderr } = await promisify(execFile)(process.execPath, [JITI, join(ROOT, "examples", name), ...args], { cwd: ws.cwd, env });
	return { stdout, stderr };
}

const toolMessages = (index: number) => server.requests[index]!.body.messages.filter((message: any) => message.role === "tool").map((message: any) => message.content);

describe("SDK examples", () => {
	it("01-prompt prints the answer to one prompt", async () => {
		const ws = setUp();
		server.enqueue({ text: "It greets people." });
		const { stdout, stderr } = await runExample("01-prompt.ts", ws, ["What", "does", "it", "do?"]);
		expect(stdout).toBe("It greets people.\n");
		expect(stderr).toBe("");
		expect(server.requests[0]!.body.messages.at(-1)).toMatchObject({ role: "user", content: "What does it do?" });
	});

	it("02-tools: its tool's thrown error reaches the model as an error result, and the model retries", async () => {
		const ws = setUp();
		server.enqueue(
			{ toolCalls: [{ id: "w1", name: "get_weather", arguments: { city: "Atlantis" } }] },
			{ toolCalls: [{ id: "w2", name: "get_weather", arguments: { city: "Paris" } }] },
			{ text: "It is 14 °C in Paris; Atlantis is not a city I know." },
		);
		const { stdout } = await runExample("02-tools.ts", ws);
		expect(stdout.split("\n")).toEqual([
			'error result for the model: Unknown city "Atlantis". Known cities: Paris, Tokyo, Lima.',
			"result for the model: Paris: 14 °C",
			"answer: It is 14 °C in Paris; Atlantis is not a city I know.",
			"",
		]);
		expect(server.requests[0]!.body.tools.map((tool: any) => tool.function.name)).toEqual(["get_weather"]);
		expect(toolMessages(1)).toEqual(['Unknown city "Atlantis". Known cities: Paris, Tokyo, Lima.']);
	});

	it("03-events prints the three timelines in the order they happen", async () => {
		const ws = setUp();
		writeFileSync(join(ws.cwd, "a.txt"), "alpha\n");
		server.enqueue({ text: "Reading.", toolCalls: [{ id: "r1", name: "read", arguments: { path: "a.txt" } }] }, { text: "Done." });
		const { stdout } = await runExample("03-events.ts", ws);
		const lines = stdout.trimEnd().split("\n");
		expect(lines.filter((line) => !line.includes("message_update"))).toEqual([
			"agent   | agent_start",
			"agent   | turn_start",
			"message | message_start (user)",
			"message | message_end (user)",
			"message | message_start (assistant)",
			"message | message_end (assistant)",
			"tool    | tool_execution_start read r1",
			"tool    | tool_execution_end r1",
			"message | message_start (toolResult)",
			"message | message_end (toolResult)",
			"agent   | turn_end",
			"agent   | turn_start",
			"message | message_start (assistant)",
			"message | message_end (assistant)",
			"agent   | turn_end",
			"agent   | agent_end",
		]);
		// The model's text arrives in deltas on the message timeline, and only there.
		const deltas = lines.flatMap((line) => (line.startsWith("message | message_update +") ? [JSON.parse(line.slice(26))] : []));
		expect(deltas.join("")).toBe("Reading.Done.");
	});

	it("04-parallel-order: seed 001's sample runs as written; starts and results in source order, then one call at a time", async () => {
		const ws = setUp();
		for (const name of ["a", "b", "c"]) writeFileSync(join(ws.cwd, `${name}.txt`), `${name}\n`.repeat(1000));
		const threeReads = { toolCalls: ["a", "b", "c"].map((name) => ({ id: `call_${name}`, name: "read", arguments: { path: `${name}.txt` } })) };
		server.enqueue(threeReads, { text: "Read three." }, threeReads, { text: "Read again." });
		const { stdout } = await runExample("04-parallel-order.ts", ws);
		const lines = stdout.trimEnd().split("\n");
		expect(lines[0]).toBe("start 顺序（源序）: [ 'call_a', 'call_b', 'call_c' ]");
		expect(lines[1]).toMatch(/^end 顺序（完成序）: \[ 'call_[abc]', 'call_[abc]', 'call_[abc]' \]$/);
		expect([...lines[1]!.matchAll(/call_\w/g)].map((match) => match[0]).sort()).toEqual(["call_a", "call_b", "call_c"]);
		expect(lines[2]).toBe("结果消息顺序（源序）: [ 'call_a', 'call_b', 'call_c' ]");
		expect(lines.slice(3).join(" ").replace(/\s+/g, " ")).toBe(
			"sequential: [ 'start call_a', 'end call_a', 'start call_b', 'end call_b', 'start call_c', 'end call_c' ]",
		);
		expect(server.requests[0]!.body.messages.at(-1)).toMatchObject({ role: "user", content: "并行读三个文件" });
	});
});

describe("extension examples", () => {
	it("05-guard-extension blocks rm -rf with a reason the model reads, and adds a hint to a failed command", async () => {
		const ws = workspace();
		mkdirSync(join(ws.cwd, "build"));
		server.enqueue(
			{ toolCalls: [{ id: "rm", name: "bash", arguments: { command: "rm -rf build" } }] },
			{ toolCalls: [{ id: "cat", name: "bash", arguments: { command: "cat missing.txt" } }] },
			{ text: "I left build alone." },
		);
		const result = await runLoom(["-p", "-e", join(ROOT, "examples", "05-guard-extension.ts"), ...serverFlags(server.openaiBaseUrl), "clean up"], ws);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("I left build alone.\n");
		expect(toolMessages(1)).toEqual(["rm -rf is not allowed here: delete the exact files you mean instead."]);
		const failed = toolMessages(2)[1] as string;
		expect(failed).toContain("missing.txt: No such file or directory");
		expect(failed.trimEnd().endsWith("Hint: run ls first to check the path, then retry.")).toBe(true);
	});

	it("06-custom-tool-extension adds a tool the model calls", async () => {
		const ws = workspace();
		writeFileSync(join(ws.cwd, "notes.md"), "one\ntwo\nthree\n");
		server.enqueue({ toolCalls: [{ id: "n", name: "count_lines", arguments: { path: "notes.md" } }] }, { text: "Three lines." });
		const result = await runLoom(["-p", "-e", join(ROOT, "examples", "06-custom-tool-extension.ts"), ...serverFlags(server.openaiBaseUrl), "how long?"], ws);
		expect(result.stdout).toBe("Three lines.\n");
		expect(server.requests[0]!.body.tools.map((tool: any) => tool.function.name)).toContain("count_lines");
		expect(toolMessages(1)).toEqual(["notes.md: 3 lines"]);
	});
});

describe.skipIf(!hasTmux())("06-custom-tool-extension in the screen (tmux)", () => {
	const terminal = new TmuxTerminal("loom-examples");
	afterAll(() => terminal.kill());

	it("its tool's row shows the summary it gives, and its /line-stats command answers", async () => {
		const ws = workspace();
		mkdirSync(join(ws.home, "user-home"));
		writeFileSync(join(ws.cwd, "notes.md"), "one\ntwo\n");
		const extension = join(ROOT, "examples", "06-custom-tool-extension.ts");
		terminal.start(loomCommand(ws.home, ["-e", extension, ...serverFlags(server.openaiBaseUrl)]), { cwd: ws.cwd, columns: 100, rows: 30 });
		await terminal.waitForScreen((text) => text.includes("ready"), "the editor");
		await terminal.typeLine("/line-stats");
		await terminal.waitForScreen((text) => text.includes("count_lines has not run yet."), "the command's notice");

		server.enqueue({ toolCalls: [{ id: "n", name: "count_lines", arguments: { path: "notes.md" } }] }, { text: "Two lines." });
		await terminal.typeLine("how long are my notes?");
		const text = await terminal.waitForScreen((screen) => screen.includes("Two lines.") && screen.includes("ready"), "the answer");
		expect(text).toMatch(/✓ count_lines notes\.md/);
		await terminal.typeLine("/line-stats");
		await terminal.waitForScreen((screen) => screen.includes("count_lines counted: notes.md"), "the command's second notice");
	});
});
