// Checkpoints in tree mode: the work tree recorded in the shadow repository before each prompt, put back by a
// restore whatever changed it (write, edit, bash, a generator), and nothing of the user's own changes
// overwritten unasked.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeTree } from "../../support/project-tree.js";
import { makeProject, treeState } from "./checkpoint-fixtures.js";

describe("restoring the work tree to before a prompt", () => {
	it("puts back files modified, deletes files created and recreates files deleted, whatever changed them", async () => {
		const project = makeProject({ "src/a.ts": "a1\n", "src/b.ts": "b1\n", "docs/keep.md": "keep\n", "tools/run.sh": "#!/bin/sh\necho hi\n" });
		chmodSync(join(project.cwd, "tools/run.sh"), 0o755);
		symlinkSync("src/a.ts", join(project.cwd, "link-to-a"));
		const before = treeState(project.cwd);

		await project.prompt("p1", async (tell) => {
			await tell(["src/a.ts"]);
			writeFileSync(join(project.cwd, "src/a.ts"), "a2\n");
			// What bash did: a sed, a removal, a generator writing a new folder, a mode change, a moved link.
			execFileSync("sh", ["-c", "sed -i 's/b1/b2/' src/b.ts && rm docs/keep.md && mkdir -p gen/deep && echo x > gen/deep/out.js && chmod -x tools/run.sh && ln -sfn src/b.ts link-to-a"], {
				cwd: project.cwd,
			});
		});
		expect(treeState(project.cwd)).not.toEqual(before);

		const restore = await project.restoreTo("p1");
		expect(restore.changes).toEqual([
			{ path: "docs/keep.md", action: "recreate" },
			{ path: "gen/deep/out.js", action: "delete" },
			{ path: "link-to-a", action: "restore" },
			{ path: "src/a.ts", action: "restore" },
			{ path: "src/b.ts", action: "restore" },
			{ path: "tools/run.sh", action: "restore" },
		]);
		expect(restore.userChanged).toEqual([]);
		const report = await restore.apply();
		expect(report.failed).toEqual([]);
		expect(report.deleted).toEqual(["gen/deep/out.js"]);
		expect(report.recreated).toEqual(["docs/keep.md"]);
		// The folders the generator made are gone with its file.
		expect(treeState(project.cwd)).toEqual(before);
	});

	it("goes back several prompts at once, to before the chosen one", async () => {
		const project = makeProject({ "notes.txt": "v0\n" });
		await project.prompt("p1", () => writeFileSync(join(project.cwd, "notes.txt"), "v1\n"));
		const afterFirst = treeState(project.cwd);
		await project.prompt("p2", () => writeFileSync(join(project.cwd, "notes.txt"), "v2\n"));
		await project.prompt("p3", () => writeFileSync(join(project.cwd, "new.txt"), "n\n"));

		await (await project.restoreTo("p2")).apply();
		expect(treeState(project.cwd)).toEqual(afterFirst);
	});

	it("names the files the user changed after the agent, and keeps them when asked to", async () => {
		const project = makeProject({ "agent.txt": "0\n", "mine.txt": "0\n", "between.txt": "0\n" });
		await project.prompt("p1", () => {
			writeTree(project.cwd, { "agent.txt": "agent\n", "mine.txt": "agent\n" });
		});
		// Between two prompts the user edits a file the next prompt's agent changes again.
		writeTree(project.cwd, { "between.txt": "user\n" });
		await project.prompt("p2", () => writeTree(project.cwd, { "between.txt": "agent again\n" }));
		// After the last run, the user edits a file the agent had changed.
		writeTree(project.cwd, { "mine.txt": "user's fix\n" });

		const restore = await project.restoreTo("p1");
		expect(restore.changes.map((change) => change.path)).toEqual(["agent.txt", "between.txt", "mine.txt"]);
		expect(restore.userChanged).toEqual(["between.txt", "mine.txt"]);
		const report = await restore.apply({ keep: restore.userChanged });
		expect(report.kept).toEqual(["between.txt", "mine.txt"]);
		expect(readFileSync(join(project.cwd, "agent.txt"), "utf8")).toBe("0\n");
		expect(readFileSync(join(project.cwd, "mine.txt"), "utf8")).toBe("user's fix\n");
		expect(readFileSync(join(project.cwd, "between.txt"), "utf8")).toBe("agent again\n");
	});

	it("recreates a deleted folder tree and leaves folders that existed before in place", async () => {
		const project = makeProject({ "lib/one/a.js": "a\n", "lib/one/b.js": "b\n", "lib/keep/.gitkeep": "" });
		const before = treeState(project.cwd);
		await project.prompt("p1", () => {
			rmSync(join(project.cwd, "lib/one"), { recursive: true });
			writeTree(project.cwd, { "lib/keep/new.js": "new\n" });
		});
		await (await project.restoreTo("p1")).apply();
		expect(treeState(project.cwd)).toEqual(before);
	});

	it("leaves empty folders as they are, as the README says: git records files, not folders", async () => {
		const project = makeProject({ "a.txt": "a\n" });
		mkdirSync(join(project.cwd, "empty-before"));
		await project.prompt("p1", () => {
			execFileSync("sh", ["-c", "rmdir empty-before && mkdir made-empty && echo b > a.txt"], { cwd: project.cwd });
		});
		const restore = await project.restoreTo("p1");
		expect(restore.changes).toEqual([{ path: "a.txt", action: "restore" }]);
		await restore.apply();
		expect(Object.keys(treeState(project.cwd))).toEqual(["a.txt", "made-empty/"]);
	});

	it("restores a file to a folder that is a file now, once the file in its way is the agent's", async () => {
		const project = makeProject({ "conf/app.json": "{}\n" });
		const before = treeState(project.cwd);
		await project.prompt("p1", () => {
			rmSync(join(project.cwd, "conf"), { recursive: true });
			writeFileSync(join(project.cwd, "conf"), "now a file\n");
		});
		const report = await (await project.restoreTo("p1")).apply();
		expect(report.failed).toEqual([]);
		expect(treeState(project.cwd)).toEqual(before);
	});

	it("restores from a project's first checkpoint of many files, which is written as one pack", async () => {
		const files = Object.fromEntries(Array.from({ length: 150 }, (_, index) => [`m/f${index}.txt`, `content ${index}\n`]));
		const project = makeProject(files);
		const before = treeState(project.cwd);
		await project.prompt("p1", () => rmSync(join(project.cwd, "m"), { recursive: true }));
		const report = await (await project.restoreTo("p1")).apply();
		expect(report.recreated).toHaveLength(150);
		expect(treeState(project.cwd)).toEqual(before);
	});

	it("says why there is nothing to restore to for a prompt without a checkpoint", async () => {
		const project = makeProject({ "a.txt": "a\n" });
		await project.prompt("p1", () => unlinkSync(join(project.cwd, "a.txt")));
		expect(await project.checkpointer.prepare("unknown")).toMatch(/No checkpoint of the files was recorded for this prompt/);
		expect([...(await project.checkpointer.checkpointed(["p1", "unknown"]))]).toEqual(["p1"]);
	});

	it("leaves a nested repository's files alone", async () => {
		const project = makeProject({ "top.txt": "t\n" });
		mkdirSync(join(project.cwd, "vendor/lib"), { recursive: true });
		execFileSync("git", ["init", "-q"], { cwd: join(project.cwd, "vendor/lib") });
		writeTree(project.cwd, { "vendor/lib/code.c": "1\n" });
		await project.prompt("p1", () => writeTree(project.cwd, { "vendor/lib/code.c": "2\n", "top.txt": "u\n" }));
		const restore = await project.restoreTo("p1");
		expect(restore.changes).toEqual([{ path: "top.txt", action: "restore" }]);
	});
});
