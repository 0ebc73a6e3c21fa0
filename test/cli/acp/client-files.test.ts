// Text files through the editor (fs/read_text_file): loom asks the editor only about a regular file of a size one
// protocol message carries, and takes no answer bigger than that.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentContext } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { clientFiles, MAX_EDITOR_TEXT_BYTES } from "../../../src/cli/acp/client-files.js";
import { tempDir } from "../../support/temp-dir.js";

/** An editor whose buffers hold `buffer(path)`, recording what it was asked. */
function editor(buffer: (path: string) => string) {
	const asked: string[] = [];
	const client = {
		async request(_method: string, params: { path: string }) {
			asked.push(params.path);
			return { content: buffer(params.path) };
		},
	} as unknown as AgentContext;
	const files = clientFiles(client, { fs: { readTextFile: true, writeTextFile: true } }, () => "session-1")!;
	return { files, asked };
}

/** Fails the test instead of hanging it. */
function soon<T>(promise: Promise<T>): Promise<T> {
	return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error("the read blocked")), 3000))]);
}

describe("files through the editor", () => {
	it("takes the editor's text of a regular file", async () => {
		const file = join(tempDir(), "notes.txt");
		writeFileSync(file, "saved\n");
		const { files, asked } = editor(() => "unsaved\n");
		expect(await files.readText(file)).toBe("unsaved\n");
		expect(asked).toEqual([file]);
	});

	it("never asks the editor about a FIFO (the tools then read it from disk, where it is refused)", async () => {
		const pipe = join(tempDir(), "pipe");
		execFileSync("mkfifo", [pipe]);
		const { files, asked } = editor(() => "from a pipe");
		expect(await soon(files.readText(pipe))).toBeUndefined();
		expect(asked).toEqual([]);
	});

	it("refuses an editor's text over the limit, naming the file", async () => {
		const file = join(tempDir(), "notes.txt");
		writeFileSync(file, "small on disk\n");
		const { files } = editor(() => "x".repeat(MAX_EDITOR_TEXT_BYTES + 1));
		await expect(files.readText(file)).rejects.toThrow(`The editor's text of ${file} is over the 4.0 MB loom takes from the editor`);
	});
});
