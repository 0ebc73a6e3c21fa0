// Devices, FIFOs and sockets are not files to rewrite: renaming over one (as root, /dev/null) would replace it,
// and reading a FIFO with no writer blocks forever. The tools refuse them promptly and leave them as they are.
import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync, rmSync, writeFileSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createEditTool, createReadTool, createWriteTool } from "../../src/tools/index.js";
import { openRegularFile, readOpenFile } from "../../src/core/lib/checked-read.js";
import { MAX_IMAGE_BYTES } from "../../src/core/lib/checked-read.js";
import type { TextFileAccess } from "../../src/tools/text-files.js";
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

/** Replaces `file` right after a tool has looked at it (fs.stat): what the tool reads next must be checked again. */
function changeAfterCheck(file: string, change: () => void): void {
	const stat = fs.stat;
	const spy = vi.spyOn(fs, "stat").mockImplementation(async (...args: Parameters<typeof fs.stat>) => {
		const result = await stat(...args);
		if (args[0] === file) {
			spy.mockRestore();
			change();
		}
		return result;
	});
}

function toFifo(file: string): void {
	rmSync(file);
	execFileSync("mkfifo", [file]);
}

/** Opens and closes a FIFO for writing if a reader waits on it (ENXIO otherwise, which is fine). */
function unblockReader(file: string): void {
	try {
		closeSync(openSync(file, constants.O_WRONLY | constants.O_NONBLOCK));
	} catch {}
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("files changed between the tool's check and its read", () => {
	afterEach(() => {
		vi.restoreAllMocks();
	});

	// The read tool opens a file once and reads an image from that descriptor at once: no moment is left to swap
	// it, so these hold the descriptor the way the tool does and change the file meanwhile.
	it("an image replaced by a FIFO after it was opened is read as it was opened", () => {
		const dir = tempDir();
		const file = path.join(dir, "shot.png");
		const image = Buffer.concat([PNG, Buffer.alloc(100)]);
		writeFileSync(file, image);
		const opened = openRegularFile(file);
		try {
			toFifo(file);
			expect(readOpenFile(opened, MAX_IMAGE_BYTES, "shot.png")).toEqual(image);
		} finally {
			closeSync(opened.fd);
		}
	});

	it("an image that grew past the limit after it was opened is refused, reading no more than the limit", () => {
		const dir = tempDir();
		const file = path.join(dir, "shot.png");
		writeFileSync(file, Buffer.concat([PNG, Buffer.alloc(100)]));
		const opened = openRegularFile(file);
		try {
			writeFileSync(file, Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]));
			expect(() => readOpenFile(opened, MAX_IMAGE_BYTES, "shot.png")).toThrow(/shot\.png is 5\.0 MB, over the 5\.0 MB/);
		} finally {
			closeSync(opened.fd);
		}
	});

	// The editor port is asked for the text after the file was checked and before it is read from disk: a
	// deterministic moment to swap the file. The tool reads the file it checked, through the descriptor it holds.
	it("read reads the text file it checked, not a FIFO put in its place before the read", async () => {
		const dir = tempDir();
		const file = path.join(dir, "notes.txt");
		writeFileSync(file, "checked\n");
		const files: TextFileAccess = {
			async readText() {
				toFifo(file);
				return undefined;
			},
			async writeText() {},
		};
		try {
			const result = await soon(createReadTool(dir, { files }).execute("1", { path: "notes.txt" }));
			expect(result.content).toEqual([{ type: "text", text: "checked" }]);
		} finally {
			// Without the fix a reader is stuck opening the FIFO; a writer that comes and goes lets it end.
			unblockReader(file);
		}
	});

	it("write's preview does not block on a file replaced by a FIFO, and says what it is", async () => {
		const dir = tempDir();
		const file = path.join(dir, "notes.txt");
		writeFileSync(file, "old\n");
		changeAfterCheck(file, () => toFifo(file));
		const lines = await soon(Promise.resolve(createWriteTool(dir).previewChange!({ path: "notes.txt", content: "new\n" })));
		expect(lines?.map((line) => line.text).join("\n")).toMatch(/notes\.txt is not a regular file \(it is a FIFO/);
	});
});
