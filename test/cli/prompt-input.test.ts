// Prompt assembly from @files, words (a command they name, in print mode) and stdin; the pieces of JSON mode and the session list.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { eventToJsonLine } from "../../src/cli/print/line-writer.js";
import { type CommandDefinition, CommandRegistry } from "../../src/core/session/commands/command-registry.js";
import type { ToolCallState } from "../../src/core/session/session-events.js";
import { buildPromptInput, MAX_STDIN_BYTES, printPrompt, readStdin } from "../../src/cli/prompt-input.js";
import { formatSessionList } from "../../src/cli/session-choice.js";
import { UsageError } from "../../src/cli/run-io.js";
import { tempDir } from "../support/temp-dir.js";
import { sleep } from "../support/wait-for.js";

const dir = tempDir("loom-input-");

describe("readStdin", () => {
	it("reads all of a stream as UTF-8", async () => {
		expect(await readStdin(Readable.from([Buffer.from("héllo "), Buffer.from("wörld")]))).toBe("héllo wörld");
	});

	it("refuses more than the limit as a usage error", async () => {
		const big = Readable.from([Buffer.alloc(600, 97), Buffer.alloc(600, 98)]);
		await expect(readStdin(big, 1000)).rejects.toThrow(UsageError);
		await expect(readStdin(Readable.from([Buffer.alloc(11 * 1024 * 1024)]))).rejects.toThrow(/larger than 10 MB/);
	});
});

describe("readStdin on a pipe that stays silent", () => {
	it("says once that it is waiting for stdin, then still reads what arrives", async () => {
		const stream = new PassThrough();
		const notes: string[] = [];
		const reading = readStdin(stream, MAX_STDIN_BYTES, { afterMs: 50, notify: (text) => notes.push(text) });
		await sleep(200);
		expect(notes).toHaveLength(1);
		expect(notes[0]).toMatch(/waiting for stdin.*<\/dev\/null/);
		stream.end("late text");
		expect(await reading).toBe("late text");
		expect(notes).toHaveLength(1);
	});

	it("says nothing when stdin ends in time", async () => {
		const notes: string[] = [];
		const stream = new PassThrough();
		stream.end("quick");
		expect(await readStdin(stream, MAX_STDIN_BYTES, { afterMs: 50, notify: (text) => notes.push(text) })).toBe("quick");
		await sleep(100);
		expect(notes).toEqual([]);
	});
});

describe("buildPromptInput", () => {
	it("puts file blocks first, then the words, then stdin", () => {
		writeFileSync(join(dir, "a.txt"), "A body\n");
		const input = buildPromptInput(["a.txt"], "explain", "piped\n", dir);
		expect(input.text).toBe(`<file name="${join(dir, "a.txt")}">\nA body\n</file>\n\nexplain\n\npiped`);
		expect(input.images).toEqual([]);
	});

	it("attaches the files that @-mentions inside the words name, as the screen does; a mention naming no file stays text", () => {
		writeFileSync(join(dir, "a.txt"), "A body\n");
		writeFileSync(join(dir, "b.md"), "B body\n");
		const input = buildPromptInput([], "explain @a.txt and @b.md, not @missing.txt or me@a.txt", "", dir);
		expect(input.attached.map((file) => file.path)).toEqual([join(dir, "a.txt"), join(dir, "b.md")]);
		expect(input.text).toBe(
			`<file name="${join(dir, "a.txt")}">\nA body\n</file>\n\n<file name="${join(dir, "b.md")}">\nB body\n</file>\n\n` +
				"explain @a.txt and @b.md, not @missing.txt or me@a.txt",
		);
		// A file given as an argument and mentioned too goes along once.
		expect(buildPromptInput(["a.txt"], "explain @a.txt", "", dir).attached).toHaveLength(1);
		writeFileSync(join(dir, "blob.bin"), Buffer.from([1, 2, 0, 3]));
		expect(() => buildPromptInput([], "what is @blob.bin", "", dir)).toThrow(UsageError);
	});

	it("attaches images found by their bytes, whatever the extension", () => {
		const gif = Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "binary");
		writeFileSync(join(dir, "picture.dat"), gif);
		const input = buildPromptInput(["picture.dat"], "what is this", "", dir);
		expect(input.images).toEqual([{ type: "image", mimeType: "image/gif", data: gif.toString("base64") }]);
		expect(input.text).toContain("(image attached)");
	});

	it("refuses binary files, directories and missing files clearly", () => {
		writeFileSync(join(dir, "blob.bin"), Buffer.from([1, 2, 0, 3]));
		mkdirSync(join(dir, "sub"), { recursive: true });
		expect(() => buildPromptInput(["blob.bin"], "", "", dir)).toThrow(/binary file that is not an image/);
		expect(() => buildPromptInput(["sub"], "", "", dir)).toThrow(/is a directory/);
		expect(() => buildPromptInput(["gone.txt"], "", "", dir)).toThrow(/no such file/);
	});

	it("explains a quoted \"@file question\" argument: the file and the words go in separate arguments", () => {
		writeFileSync(join(dir, "app.ts"), "code\n");
		expect(() => buildPromptInput(["app.ts explain this"], "", "", dir)).toThrow(UsageError);
		expect(() => buildPromptInput(["app.ts explain this"], "", "", dir)).toThrow(/loom -p @app\.ts "explain this"/);
	});

	it("refuses a text file over 10 MB (as for stdin) and an image over 5 MB, naming the size", () => {
		writeFileSync(join(dir, "huge.log"), Buffer.alloc(11 * 1024 * 1024, 97));
		expect(() => buildPromptInput(["huge.log"], "why", "", dir)).toThrow(UsageError);
		expect(() => buildPromptInput(["huge.log"], "why", "", dir)).toThrow(/@huge\.log is 11\.0 MB.*10 MB/);
		const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(6 * 1024 * 1024)]);
		writeFileSync(join(dir, "big.png"), png);
		expect(() => buildPromptInput(["big.png"], "what", "", dir)).toThrow(/@big\.png is an image of 6\.0 MB.*5\.0 MB/);
		writeFileSync(join(dir, "fine.txt"), Buffer.alloc(1024 * 1024, 98));
		expect(buildPromptInput(["fine.txt"], "ok", "", dir).text).toContain("bbbb");
	});
});

describe("eventToJsonLine", () => {
	it("drops the growing message and partial from message_update, keeps other events whole", () => {
		const partial = { role: "assistant", content: [{ type: "text", text: "Hello wor" }] } as any;
		const update = eventToJsonLine({
			type: "message_update",
			message: partial,
			assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "wor", partial },
		});
		expect(JSON.parse(update!)).toEqual({ type: "message_update", assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "wor" } });
		expect(JSON.parse(eventToJsonLine({ type: "queue_changed", steering: ["a"], followUp: [] })!)).toEqual({
			type: "queue_changed",
			steering: ["a"],
			followUp: [],
		});
	});

	it("writes no line for the session's tool-call states: the lines keep the agent's tool timeline", () => {
		const call: ToolCallState = { id: "c", name: "bash", args: {}, status: "running", description: { summary: "", files: { reads: [], changes: [] } }, queuedAt: 0, approvalWaitMs: 0 };
		expect(eventToJsonLine({ type: "tool_call_changed", call })).toBeUndefined();
	});
});

describe("formatSessionList", () => {
	const zone = process.env.TZ;
	afterEach(() => {
		if (zone === undefined) delete process.env.TZ;
		else process.env.TZ = zone;
	});

	it("shows each session's time in the user's time zone, not UTC", () => {
		process.env.TZ = "Asia/Kolkata";
		const info = { file: "/f", id: "0123456789ab", cwd: "/", created: new Date(0), firstPrompt: "hi", messageCount: 2 };
		expect(formatSessionList([{ ...info, modified: new Date("2025-05-06T20:45:00Z") }], 80)).toMatch(/^1\. 2025-05-07 02:15 /);
	});

	it("numbers sessions with date, message count, short id and a prompt cut to the width", () => {
		process.env.TZ = "UTC";
		const text = formatSessionList(
			[
				{ file: "/f1", id: "0123456789ab", cwd: "/", created: new Date(0), modified: new Date("2025-05-06T07:08:00Z"), firstPrompt: "x".repeat(200), messageCount: 12 },
				{ file: "/f2", id: "abcdef012345", cwd: "/", created: new Date(0), modified: new Date("2025-05-05T00:00:00Z"), firstPrompt: "", messageCount: 0 },
			],
			80,
		);
		const [first, second] = text.split("\n");
		expect(first).toMatch(/^1\. 2025-05-06 07:08 +12 msg {2}01234567 {2}x+…$/);
		expect(first!.length).toBe(80);
		expect(second).toMatch(/^2\. 2025-05-05 00:00 +0 msg {2}abcdef01 {2}\(no prompt\)$/);
	});
});

// Print mode's prompt when its words name a command: prompt templates and skills are expanded as the screen
// expands them; the session's other commands and unknown names are usage errors; paths stay prompts.
function registry(): CommandRegistry<unknown> {
	const commands = new CommandRegistry<unknown>();
	const command = (definition: Partial<CommandDefinition<unknown>> & { name: string }): CommandDefinition<unknown> => ({
		description: definition.name,
		handler: () => {
			throw new Error("print mode never runs a handler");
		},
		...definition,
	});
	commands.register(command({ name: "model", source: "builtin" }));
	commands.register(command({ name: "deploy", source: "extension" }));
	commands.register(command({ name: "fix", source: "prompt", expand: async (args) => `Fix issue ${args}.` }));
	commands.register(command({ name: "skill:review", source: "skill", expand: async (args) => `<skill>Review.</skill>\n\n${args}` }));
	return commands;
}

describe("printPrompt", () => {
	it("expands a prompt template or a skill named at the start of the words", async () => {
		expect(await printPrompt(registry(), "/fix 42 parser")).toBe("Fix issue 42 parser.");
		expect(await printPrompt(registry(), "/skill:review the diff")).toBe("<skill>Review.</skill>\n\nthe diff");
	});

	it("leaves other words, paths among them, as they are", async () => {
		expect(await printPrompt(registry(), "explain /fix")).toBe("explain /fix");
		expect(await printPrompt(registry(), "/etc/hosts what is in it")).toBe("/etc/hosts what is in it");
		expect(await printPrompt(registry(), "")).toBe("");
	});

	it("refuses the session's other commands, which have no answer to print, pointing at the flags, the screen and RPC", async () => {
		const refused = printPrompt(registry(), "/model gpt-5.6-terra");
		await expect(refused).rejects.toBeInstanceOf(UsageError);
		await expect(refused).rejects.toThrow(
			"/model is a command, not a prompt: print mode sends prompts, expanding prompt templates and skills. " +
				"Flags do what the session's commands do (-m, --thinking, -c, --session, --fork: loom --help); run other commands in the screen (loom) or over RPC (loom --mode rpc).",
		);
		await expect(printPrompt(registry(), "/deploy now")).rejects.toThrow(/^\/deploy is a command, not a prompt/);
	});

	it("refuses an unknown command, naming the templates and skills there are and how to send such text", async () => {
		const refused = printPrompt(registry(), "/fxi 42");
		await expect(refused).rejects.toBeInstanceOf(UsageError);
		await expect(refused).rejects.toThrow(
			"Unknown command /fxi. Prompt templates and skills: /fix, /skill:review. To send text starting with /, pipe it on stdin.",
		);
		await expect(printPrompt(new CommandRegistry<unknown>(), "/fix 1")).rejects.toThrow(
			"Unknown command /fix. There are no prompt templates or skills. To send text starting with /, pipe it on stdin.",
		);
	});
});
