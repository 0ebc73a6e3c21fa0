import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createReadTool, createWriteTool } from "../../src/tools/index.js";
import { tempDir } from "../support/temp-dir.js";

describe("write tool", () => {
	it("creates a file and its parent directories", async () => {
		const dir = tempDir();
		const tool = createWriteTool(dir);
		const result = await tool.execute("1", { path: "deep/er/new.txt", content: "héllo\n" });
		expect(await fs.readFile(path.join(dir, "deep/er/new.txt"), "utf8")).toBe("héllo\n");
		expect(result.details).toEqual({ path: path.join(dir, "deep/er/new.txt"), bytes: 7, created: true });
		expect(result.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("7 bytes") });
	});

	it("overwrites an existing file, keeping its mode, leaving no temporary files", async () => {
		const dir = tempDir();
		const file = path.join(dir, "run.sh");
		await fs.writeFile(file, "old old old");
		await fs.chmod(file, 0o755);
		const result = await createWriteTool(dir).execute("1", { path: "run.sh", content: "new" });
		expect(await fs.readFile(file, "utf8")).toBe("new");
		expect((await fs.stat(file)).mode & 0o777).toBe(0o755);
		expect(await fs.readdir(dir)).toEqual(["run.sh"]);
		expect(result.details.created).toBe(false);
	});

	it("serialises parallel writes to one file in call order", async () => {
		const dir = tempDir();
		const tool = createWriteTool(dir);
		await Promise.all(Array.from({ length: 10 }, (_, i) => tool.execute(String(i), { path: "same.txt", content: `version ${i}` })));
		expect(await fs.readFile(path.join(dir, "same.txt"), "utf8")).toBe("version 9");
		expect(await fs.readdir(dir)).toEqual(["same.txt"]);
	});

	it("does not write when already aborted", async () => {
		const dir = tempDir();
		const controller = new AbortController();
		controller.abort();
		await expect(createWriteTool(dir).execute("1", { path: "x.txt", content: "x" }, controller.signal)).rejects.toThrow(/aborted/);
		expect(await fs.readdir(dir)).toEqual([]);
	});

	it("refuses to overwrite a directory", async () => {
		const dir = tempDir();
		await fs.mkdir(path.join(dir, "d"));
		await expect(createWriteTool(dir).execute("1", { path: "d", content: "x" })).rejects.toThrow(/is a directory/);
	});
});

describe("argument names other agents use", () => {
	it("read and write take file_path (Claude Code's name) as path, end to end through the tool", async () => {
		const dir = tempDir();
		const write = createWriteTool(dir);
		const read = createReadTool(dir);
		const writeArgs = write.prepareArguments!({ file_path: "notes.txt", content: "kept\n" }) as { path: string; content: string };
		expect(writeArgs).toEqual({ path: "notes.txt", content: "kept\n" });
		await write.execute("1", writeArgs);
		const readArgs = read.prepareArguments!({ file_path: "notes.txt", offset: 1 }) as { path: string };
		expect(readArgs).toEqual({ path: "notes.txt", offset: 1 });
		const result = await read.execute("2", readArgs);
		expect(result.content[0]).toMatchObject({ type: "text", text: "kept" });
		// An explicit path wins, and anything that is not an object is left for validation to report.
		expect(read.prepareArguments!({ path: "a", file_path: "b" })).toEqual({ path: "a", file_path: "b" });
		expect(read.prepareArguments!("x")).toBe("x");
	});
});
