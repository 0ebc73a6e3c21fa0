// Checkpoints cost nothing when nothing could change: a prompt whose tools only read spawns no git process, the
// "before" is taken when the first call that may change files is about to run, and a rewind still restores
// what the agent changed. Every git process is counted by a logging `git` placed first on PATH.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Checkpointer } from "../../../src/plugs/checkpoints/checkpointer.js";
import { tempDir } from "../../support/temp-dir.js";
import { makeProject, treeState } from "./checkpoint-fixtures.js";

const shim = tempDir("loom-git-shim-");
const log = join(shim, "calls.log");
const savedPath = process.env.PATH;

beforeAll(() => {
	const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
	mkdirSync(join(shim, "bin"));
	writeFileSync(join(shim, "bin", "git"), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realGit}' "$@"\n`);
	chmodSync(join(shim, "bin", "git"), 0o755);
	writeFileSync(log, "");
	process.env.PATH = `${join(shim, "bin")}:${savedPath}`;
});

afterAll(() => {
	process.env.PATH = savedPath;
});

/** The git processes `work` started (their arguments). */
async function gitCalls(work: () => Promise<unknown>): Promise<string[]> {
	const start = readFileSync(log, "utf8").length;
	await work();
	return readFileSync(log, "utf8").slice(start).split("\n").filter((line) => line !== "");
}

describe("checkpoints that cost nothing when nothing changed", () => {
	it("spawns no git process for a prompt whose tools only read, once the project is known", async () => {
		const project = makeProject({ "a.txt": "a\n" });
		// The logging git is really in the way: the first snapshot goes through it.
		expect(await gitCalls(() => project.prompt("p1", () => writeFileSync(join(project.cwd, "a.txt"), "b\n")))).not.toEqual([]);
		expect(await gitCalls(() => project.promptReading("p2"))).toEqual([]);
		expect(await gitCalls(() => project.promptReading("p3"))).toEqual([]);
		// Another session of the process in the same project: where its root is, and that git runs, is known.
		const other = new Checkpointer({ home: project.home, cwd: project.cwd, session: () => ({ id: "session-2", file: join(project.home, "s2.jsonl") }), notify: () => {} });
		expect(
			await gitCalls(async () => {
				other.beginRun();
				other.bindPrompt("q1");
				await other.endRun();
				await other.settled();
			}),
		).toEqual([]);
	});

	it("records a run whose call changed nothing with one listing after its snapshot", async () => {
		const project = makeProject({ "a.txt": "a\n" });
		await project.prompt("p1", () => writeFileSync(join(project.cwd, "a.txt"), "b\n"));
		const calls = await gitCalls(() => project.prompt("p2", () => {}));
		// Before: what changed, where it did not look, the list of that kept, the refs; after: what changed.
		expect(calls.filter((call) => call.includes("write-tree"))).toEqual([]);
		expect(calls.filter((call) => call.includes("ls-files"))).toHaveLength(3);
		expect(calls.filter((call) => call.includes("update-ref"))).toHaveLength(1);
	});

	it("takes the before-snapshot when the first call that may change files is about to run", async () => {
		const project = makeProject({ "a.txt": "original\n" });
		const { checkpointer, cwd } = project;
		checkpointer.beginRun();
		checkpointer.bindPrompt("p1");
		// The user edits while the model thinks; then a tool edits.
		writeFileSync(join(cwd, "a.txt"), "the user's\n");
		await checkpointer.beforeChange(["a.txt"]);
		writeFileSync(join(cwd, "a.txt"), "the agent's\n");
		await checkpointer.endRun();
		const restore = await project.restoreTo("p1");
		expect(restore.changes).toEqual([{ path: "a.txt", action: "restore" }]);
		await restore.apply();
		expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("the user's\n");
	});

	it("rewinds to a prompt that changed nothing by undoing what the prompts after it changed", async () => {
		const project = makeProject({ "notes.txt": "v0\n" });
		const before = treeState(project.cwd);
		await project.promptReading("p1");
		await project.prompt("p2", () => writeFileSync(join(project.cwd, "notes.txt"), "v2\n"));
		await project.promptReading("p3");
		await project.prompt("p4", () => writeFileSync(join(project.cwd, "new.txt"), "n\n"));
		await project.promptReading("p5");
		expect([...(await project.checkpointer.checkpointed(["p1", "p2", "p3", "p4", "p5"]))].sort()).toEqual(["p1", "p2", "p3", "p4", "p5"]);
		expect((await project.restoreTo("p5")).changes).toEqual([]);
		expect((await project.restoreTo("p3")).changes).toEqual([{ path: "new.txt", action: "delete" }]);
		await (await project.restoreTo("p1")).apply();
		expect(treeState(project.cwd)).toEqual(before);
	});
});
