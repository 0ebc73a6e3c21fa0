import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { outputFolder, removeOutputFolder, removeStaleOutputFolders } from "../../src/core/lib/files/output-folder.js";
import { createBashTool } from "../../src/tools/index.js";
import { tempDir } from "../support/temp-dir.js";

function textOf(result: { content: { type: string; text?: string }[] }): string {
	return result.content.map((block) => block.text ?? "").join("");
}

const MARKER = /\n\[\.\.\. (\d+) bytes \([^)]+\) dropped here: this file keeps the first (\d+) and the last (\d+) of (\d+) bytes \.\.\.\]\n/;

describe("bash output files", () => {
	it("are capped: the file keeps the head and the tail of the output and says what was dropped in between", async () => {
		const cap = 256 * 1024;
		const tool = createBashTool(tempDir(), { maxOutputFileBytes: cap });
		const result = await tool.execute("1", { command: "seq 1 300000" });
		const total = result.details.totalBytes;
		expect(total).toBe(1_988_895);

		const file = result.details.fullOutputPath!;
		const full = await fs.readFile(file, "utf8");
		const marker = MARKER.exec(full);
		expect(marker).not.toBeNull();
		const [dropped, head, tail, whole] = marker!.slice(1).map(Number) as [number, number, number, number];
		expect(whole).toBe(total);
		expect(head + tail + dropped).toBe(total);
		expect(head + tail).toBeLessThanOrEqual(cap);
		expect(head + tail).toBeGreaterThan(cap - 1024);
		// Head, marker, tail: nothing else, nothing lost at the seams.
		expect(Buffer.byteLength(full)).toBe(head + marker![0].length + tail);
		expect(full.startsWith("1\n2\n3\n")).toBe(true);
		expect(full.endsWith("299999\n300000\n")).toBe(true);
		const expected = Array.from({ length: 300000 }, (_, i) => `${i + 1}\n`).join("");
		expect(full.slice(0, marker!.index)).toBe(expected.slice(0, head));
		expect(full.slice(marker!.index + marker![0].length)).toBe(expected.slice(total - tail));

		expect(textOf(result)).toMatch(
			new RegExp(`Output file \\(its first [\\d.]+ KB and last [\\d.]+ KB; [\\d.]+ MB in between dropped\\): ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\]$`),
		);
	});

	it.each([
		["well below the cap", "seq 1 10000"],
		["past the part kept from the start, within the cap", "seq 1 40000"],
	])("keep a whole output %s", async (_case, command) => {
		const tool = createBashTool(tempDir(), { maxOutputFileBytes: 256 * 1024 });
		const result = await tool.execute("1", { command });
		const full = await fs.readFile(result.details.fullOutputPath!, "utf8");
		expect(full).toBe(spawnSync("sh", ["-c", command], { encoding: "utf8" }).stdout);
		expect(textOf(result)).toContain(`Full output: ${result.details.fullOutputPath}]`);
	});

	it("live in one folder of this process in the temporary directory", async () => {
		const tool = createBashTool(tempDir());
		const first = await tool.execute("1", { command: "seq 1 5000" });
		const second = await tool.execute("2", { command: "seq 1 6000" });
		const folder = path.dirname(first.details.fullOutputPath!);
		expect(path.dirname(second.details.fullOutputPath!)).toBe(folder);
		expect(path.dirname(folder)).toBe(await fs.realpath(os.tmpdir()).catch(() => os.tmpdir()));
		expect(path.basename(folder)).toMatch(new RegExp(`^loom-output-${process.pid}-`));
		expect((await fs.stat(folder)).mode & 0o777).toBe(0o700);
	});
});

describe("the output folder", () => {
	it("is removed at exit by one exit listener, however often it is made again", () => {
		const before = process.listeners("exit").length;
		for (let i = 0; i < 3; i++) {
			expect(existsSync(outputFolder())).toBe(true);
			removeOutputFolder();
		}
		expect(process.listeners("exit").length - before).toBeLessThanOrEqual(1);
	});
});

describe("removeStaleOutputFolders", () => {
	const children: ReturnType<typeof spawn>[] = [];
	afterEach(() => {
		for (const child of children.splice(0)) child.kill("SIGKILL");
	});

	it("removes the folders of loom processes that are gone, and only those", async () => {
		const root = tempDir();
		const deadPid = spawnSync("true").pid;
		const sleeper = spawn("sleep", ["30"]);
		children.push(sleeper);
		const names = {
			dead: `loom-output-${deadPid}-aaaaaa`,
			live: `loom-output-${sleeper.pid}-bbbbbb`,
			own: `loom-output-${process.pid}-cccccc`,
			unrelated: "loom-outputs-of-something-else",
			notPid: "loom-output-x-dddddd",
		};
		for (const name of Object.values(names)) {
			await fs.mkdir(path.join(root, name));
			await fs.writeFile(path.join(root, name, "loom-bash-1.log"), "kept output\n");
		}

		await removeStaleOutputFolders(root);

		expect((await fs.readdir(root)).sort()).toEqual([names.live, names.own, names.unrelated, names.notPid].sort());
	});

	it("does nothing when the temporary directory cannot be read", async () => {
		await expect(removeStaleOutputFolders(path.join(tempDir(), "missing"))).resolves.toBeUndefined();
	});
});
