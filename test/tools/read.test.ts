import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createReadTool } from "../../src/tools/index.js";
import { projectTree } from "../support/project-tree.js";

const PNG_1x1 = Buffer.from(
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
	"base64",
);

async function setup(files: Record<string, string | Buffer>) {
	const dir = projectTree(files);
	return { dir, tool: createReadTool(dir) };
}

function textOf(result: { content: { type: string; text?: string }[] }): string {
	return result.content
		.filter((block) => block.type === "text")
		.map((block) => block.text)
		.join("");
}

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n");

describe("read tool", () => {
	const originalHome = process.env.HOME;
	afterEach(() => {
		process.env.HOME = originalHome;
	});

	it("reads a small file relative to cwd", async () => {
		const { tool, dir } = await setup({ "src/a.txt": "alpha\nbeta\n" });
		const result = await tool.execute("1", { path: "src/a.txt" });
		expect(textOf(result)).toBe("alpha\nbeta");
		expect(result.details).toMatchObject({ path: path.join(dir, "src/a.txt"), kind: "text", totalLines: 2, startLine: 1, endLine: 2, truncated: false });
	});

	it("reads a file whose size says nothing of its text, as under /proc (a regular file of size 0)", async () => {
		const { tool } = await setup({});
		const result = await tool.execute("1", { path: "/proc/self/status" });
		expect(textOf(result)).toMatch(/^Name:\t/m);
		expect(textOf(result)).toMatch(/^Pid:\t\d+/m);
	});

	it("expands ~ to the home directory", async () => {
		const { dir, tool } = await setup({ "notes.txt": "home note" });
		process.env.HOME = dir;
		const result = await tool.execute("1", { path: "~/notes.txt" });
		expect(textOf(result)).toBe("home note");
	});

	it("stops at 2000 lines and says how to continue", async () => {
		const { tool } = await setup({ "big.txt": `${numbered(2500)}\n` });
		const first = await tool.execute("1", { path: "big.txt" });
		const text = textOf(first);
		expect(text).toContain("line 2000\n");
		expect(text).not.toContain("line 2001");
		expect(text).toContain("[Showing lines 1-2000 of 2500");
		expect(text).toContain("Use offset=2001 to continue.]");
		expect(first.details).toMatchObject({ truncated: true, nextOffset: 2001 });

		const rest = await tool.execute("2", { path: "big.txt", offset: 2001 });
		expect(textOf(rest).startsWith("line 2001\n")).toBe(true);
		expect(textOf(rest).endsWith("line 2500")).toBe(true);
		expect(rest.details).toMatchObject({ truncated: false, startLine: 2001, endLine: 2500 });
	});

	it("stops at 50 KB without cutting a line", async () => {
		const line = (i: number) => `${String(i).padStart(5, "0")}:${"x".repeat(94)}`; // 100 bytes
		const content = Array.from({ length: 1000 }, (_, i) => line(i + 1)).join("\n");
		const { tool } = await setup({ "wide.txt": content });
		const result = await tool.execute("1", { path: "wide.txt" });
		const text = textOf(result);
		const [body, notice] = text.split("\n\n");
		const lines = body!.split("\n");
		expect(Buffer.byteLength(body!)).toBeLessThanOrEqual(50 * 1024);
		expect(lines.every((l) => l.length === 100)).toBe(true);
		// 506 lines take 506 * 101 - 1 = 51105 bytes; a 507th would make 51206, over 51200.
		expect(lines.length).toBe(506);
		expect(notice).toBe(`[Showing lines 1-506 of 1000 (50.0 KB limit). Use offset=507 to continue.]`);
	});

	it("honours offset and limit and points past the window", async () => {
		const { tool } = await setup({ "f.txt": numbered(10) });
		const result = await tool.execute("1", { path: "f.txt", offset: 3, limit: 2 });
		expect(textOf(result)).toBe("line 3\nline 4\n\n[Showing lines 3-4 of 10. Use offset=5 to continue.]");
		const last = await tool.execute("1", { path: "f.txt", offset: 10, limit: 5 });
		expect(textOf(last)).toBe("line 10");
	});

	it("does not return a line longer than the limit, and says how to slice it", async () => {
		const { tool, dir } = await setup({ "min.js": `short\n${"y".repeat(80 * 1024)}\nafter\n` });
		const result = await tool.execute("1", { path: "min.js", offset: 2 });
		const text = textOf(result);
		expect(text).not.toContain("y".repeat(100));
		expect(text).toContain("Line 2");
		expect(text).toContain("80.0 KB");
		expect(text).toContain(`sed -n '2p' "${path.join(dir, "min.js")}" | head -c`);
		expect(text).toContain("offset=3");
	});

	it("stops before a long line that would go over the limit", async () => {
		const { tool } = await setup({ "mixed.txt": `one\ntwo\n${"z".repeat(60 * 1024)}\n` });
		const result = await tool.execute("1", { path: "mixed.txt" });
		expect(textOf(result)).toBe("one\ntwo\n\n[Showing lines 1-2 of 3 (50.0 KB limit). Use offset=3 to continue.]");
	});

	it("refuses an offset past the end, naming the line count", async () => {
		const { tool } = await setup({ "f.txt": "a\nb\nc\n" });
		await expect(tool.execute("1", { path: "f.txt", offset: 4 })).rejects.toThrow(/has 3 lines/);
	});

	it("reads an empty file", async () => {
		const { tool } = await setup({ "empty.txt": "" });
		const result = await tool.execute("1", { path: "empty.txt" });
		expect(textOf(result)).toContain("empty");
		expect(result.details).toMatchObject({ totalLines: 0 });
	});

	it("shows CRLF lines without carriage returns and drops a BOM", async () => {
		const { tool } = await setup({ "win.txt": "\uFEFFfirst\r\nsecond\r\n" });
		const result = await tool.execute("1", { path: "win.txt" });
		expect(textOf(result)).toBe("first\nsecond");
	});

	it("detects images by magic bytes, not by extension", async () => {
		const { tool } = await setup({ "picture.txt": PNG_1x1, "fake.png": "just text" });
		const image = await tool.execute("1", { path: "picture.txt" });
		expect(image.content[1]).toEqual({ type: "image", mimeType: "image/png", data: PNG_1x1.toString("base64") });
		expect(image.content[0]).toMatchObject({ type: "text" });
		expect(textOf(image)).toContain("image/png");
		expect(image.details).toMatchObject({ kind: "image", mimeType: "image/png" });

		const text = await tool.execute("2", { path: "fake.png" });
		expect(textOf(text)).toBe("just text");
	});

	it.each([
		["jpeg", Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]), "image/jpeg"],
		["gif", Buffer.concat([Buffer.from("GIF89a"), Buffer.alloc(10)]), "image/gif"],
		["webp", Buffer.concat([Buffer.from("RIFF"), Buffer.from([0x24, 0, 0, 0]), Buffer.from("WEBPVP8 "), Buffer.alloc(8)]), "image/webp"],
	])("recognises %s", async (_name, bytes, mimeType) => {
		const { tool } = await setup({ "file.bin": bytes });
		const result = await tool.execute("1", { path: "file.bin" });
		expect(result.content[1]).toMatchObject({ type: "image", mimeType });
	});

	it("refuses images too large to send, with what to do instead", async () => {
		const big = Buffer.concat([PNG_1x1.subarray(0, 16), Buffer.alloc(6 * 1024 * 1024, 1)]);
		const { tool } = await setup({ "huge.png": big });
		await expect(tool.execute("1", { path: "huge.png" })).rejects.toThrow(/over the 5.0 MB limit.*smaller copy/);
	});

	it("refuses binary files that are not images", async () => {
		const { tool } = await setup({ "prog.o": Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 3]) });
		await expect(tool.execute("1", { path: "prog.o" })).rejects.toThrow(/binary file/);
	});

	it("stops reading a huge file when aborted, instead of counting all its lines first", async () => {
		const { dir, tool } = await setup({ "huge.log": "line\n".repeat(2000) });
		// 2 GB without using the disk: the tail is a hole that reads as zeros, and takes seconds to scan.
		await fs.truncate(path.join(dir, "huge.log"), 2 * 1024 ** 3);
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 100);
		await expect(tool.execute("1", { path: "huge.log" }, controller.signal)).rejects.toThrow(/aborted/i);
	});

	it("gives clear errors for a missing file and a directory", async () => {
		const { tool } = await setup({ "sub/x.txt": "x" });
		await expect(tool.execute("1", { path: "nope.txt" })).rejects.toThrow(/File not found: nope.txt/);
		await expect(tool.execute("1", { path: "sub" })).rejects.toThrow(/is a directory/);
	});
});
