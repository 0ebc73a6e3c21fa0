// Git for the checkpoints: what it writes is read with a bound (a huge repository must not fill loom's memory),
// and a restore reads the recorded contents of many files with a few git processes, not one per file.
import { execFileSync } from "node:child_process";
import { appendFileSync, chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { blobBatches } from "../../../src/plugs/checkpoints/blob-batches.js";
import { DEFAULT_MAX_OUTPUT_BYTES, GitError, runGit } from "../../../src/plugs/checkpoints/git.js";
import { tempDir } from "../../support/temp-dir.js";
import { makeProject, treeState } from "./checkpoint-fixtures.js";

/** A git repository holding one blob of `size` bytes; returns its directory and the blob's id. */
function repoWithBlob(size: number): { dir: string; id: string } {
	const dir = tempDir();
	execFileSync("git", ["init", "-q", "--bare", dir]);
	const file = join(tempDir(), "blob");
	writeFileSync(file, "");
	appendFileSync(file, Buffer.alloc(size, "x"));
	const id = execFileSync("git", ["--git-dir", dir, "hash-object", "-w", file], { encoding: "utf8" }).trim();
	return { dir, id };
}

describe("git's output", () => {
	it("is read up to a bound: past it git is stopped and the error says so", async () => {
		const { dir, id } = repoWithBlob(100_000);
		const read = runGit(["--git-dir", dir, "cat-file", "--batch"], { cwd: dir, input: `${id}\n`, maxBytes: 64 * 1024 });
		await expect(read).rejects.toThrow(GitError);
		await expect(read).rejects.toThrow("git cat-file wrote more than 64.0 KB; it was stopped.");
		const whole = await runGit(["--git-dir", dir, "cat-file", "--batch"], { cwd: dir, input: `${id}\n`, maxBytes: 200 * 1024 });
		expect(whole.stdout.length).toBeGreaterThan(100_000);
	});

	it("is bounded even when the caller gives no bound", async () => {
		const { dir, id } = repoWithBlob(DEFAULT_MAX_OUTPUT_BYTES + 1024);
		await expect(runGit(["--git-dir", dir, "cat-file", "blob", id], { cwd: dir })).rejects.toThrow(/git cat-file wrote more than 64\.0 MB/);
	});
});

describe("a restore of many files", () => {
	const path = process.env.PATH;
	afterEach(() => {
		process.env.PATH = path;
	});

	/** Every git command run from now on is logged, one line each, to the file returned. */
	function logGit(): string {
		const dir = tempDir();
		const log = join(dir, "git.log");
		const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
		mkdirSync(join(dir, "bin"));
		writeFileSync(join(dir, "bin", "git"), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${real}' "$@"\n`);
		chmodSync(join(dir, "bin", "git"), 0o755);
		writeFileSync(log, "");
		process.env.PATH = `${join(dir, "bin")}${delimiter}${path}`;
		return log;
	}

	it("reads the recorded contents with a few git processes, not one per file", async () => {
		const files = Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`src/f${index}.txt`, `content ${index}\n`.repeat(index + 1)]));
		const project = makeProject(files);
		const before = treeState(project.cwd);
		await project.prompt("p1", () => rmSync(join(project.cwd, "src"), { recursive: true }));
		const restore = await project.restoreTo("p1");

		const log = logGit();
		const report = await restore.apply();
		expect(report.failed).toEqual([]);
		expect(report.recreated).toHaveLength(60);
		expect(treeState(project.cwd)).toEqual(before);
		const catFiles = readFileSync(log, "utf8")
			.split("\n")
			.filter((line) => line.includes("cat-file"));
		expect(catFiles.length).toBeGreaterThan(0);
		expect(catFiles.length).toBeLessThanOrEqual(2);
	});

	it("compares a run's end with the next run's start only where they differ", async () => {
		const project = makeProject({ "a.txt": "a\n" });
		for (const id of ["p1", "p2", "p3", "p4"]) await project.prompt(id, () => writeFileSync(join(project.cwd, "a.txt"), `${id}\n`));

		const log = logGit();
		const restore = await project.restoreTo("p1");
		expect(restore.changes).toEqual([{ path: "a.txt", action: "restore" }]);
		expect(restore.userChanged).toEqual([]);
		const diffs = readFileSync(log, "utf8")
			.split("\n")
			.filter((line) => line.includes("diff-tree"));
		// From now to p1's start; nothing was changed between the runs.
		expect(diffs).toHaveLength(1);
	});
});

describe("blob batches", () => {
	/** A repository of blobs by id and size, recording each read (one git process each). */
	function repo(sizes: Record<string, number>) {
		const reads: string[][] = [];
		return {
			reads,
			blobSizes: async (ids: readonly string[]) => new Map(ids.filter((id) => id in sizes).map((id) => [id, sizes[id]!] as const)),
			readBlobs: async (ids: readonly string[], totalBytes: number) => {
				reads.push([...ids]);
				expect(totalBytes).toBe(ids.reduce((sum, id) => sum + sizes[id]!, 0));
				return new Map(ids.map((id) => [id, Buffer.alloc(sizes[id]!)] as const));
			},
		};
	}

	it("read the blobs asked for and those after them, up to the batch size; a bigger blob alone; a missing one as none", async () => {
		const sizes = { a: 40, b: 40, c: 30, big: 500, d: 10 };
		const fake = repo(sizes);
		const read = blobBatches(fake, ["a", "b", "c", "gone", "big", "d"], 100);
		for (const id of ["a", "b", "c"] as const) expect((await read(id))?.length).toBe(sizes[id]);
		expect(await read("gone")).toBeUndefined();
		expect((await read("big"))?.length).toBe(500);
		expect((await read("d"))?.length).toBe(10);
		expect(fake.reads).toEqual([["a", "b"], ["c"], ["big"], ["d"]]);
	});
});
