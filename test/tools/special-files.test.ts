// Devices, FIFOs and sockets are not files to rewrite: renaming over one (as root, /dev/null) would replace it,
// and reading a FIFO with no writer blocks forever. The tools refuse them promptly and leave them as they are.
import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createEditTool, createReadTool, createWriteTool } from "../../src/tools/index.js";
import { tempDir } from "../support/temp-dir.js";

async function fifo(): Promise<{ dir: string; file: string }> {
	const dir = tempDir();
	const file = path.join(dir, "pipe");
	execFileSync("mkfifo", [file]);
	return { dir, file };
}

/** Fails the test instead of hanging it when a tool blocks on the FIFO. */
function soon<T>(promise: Promise<T>): Promise<T> {
	return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error("the tool blocked")), 3000))]);
}

describe("tools on files that are not regular files", () => {
	it("write refuses a FIFO and leaves it a FIFO", async () => {
		const { dir, file } = await fifo();
		await expect(soon(createWriteTool(dir).execute("1", { path: "pipe", content: "x" }))).rejects.toThrow(/not a regular file/);
		expect((await fs.lstat(file)).isFIFO()).toBe(true);
		expect(await fs.readdir(dir)).toEqual(["pipe"]);
	});

	// Never aimed at a real device such as /dev/null: a regression would replace it for the whole machine.
	it("write refuses a symlink to a FIFO and leaves both as they are", async () => {
		const { dir, file } = await fifo();
		await fs.symlink(file, path.join(dir, "link"));
		await expect(soon(createWriteTool(dir).execute("1", { path: "link", content: "x" }))).rejects.toThrow(/not a regular file/);
		expect((await fs.lstat(file)).isFIFO()).toBe(true);
		expect((await fs.lstat(path.join(dir, "link"))).isSymbolicLink()).toBe(true);
	});

	it("edit refuses a FIFO without blocking", async () => {
		const { dir, file } = await fifo();
		const edits = [{ oldText: "a", newText: "b" }];
		await expect(soon(createEditTool(dir).execute("1", { path: "pipe", edits }))).rejects.toThrow(/not a regular file/);
		expect((await fs.lstat(file)).isFIFO()).toBe(true);
	});

	it("read refuses a FIFO without blocking", async () => {
		const { dir } = await fifo();
		await expect(soon(createReadTool(dir).execute("1", { path: "pipe" }))).rejects.toThrow(/not a regular file/);
	});
});
