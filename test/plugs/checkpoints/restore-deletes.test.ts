// What a restore may delete: only a file a checkpoint proves the agent created (absent from a snapshot that
// looked where it is, present when that run ended). Never a file that was ignored, left out or inside a nested
// repository when the snapshot was taken, nor one that someone else created between or after the runs.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeTree } from "../../support/project-tree.js";
import { makeProject, userGit } from "./checkpoint-fixtures.js";

const USER_FILES = {
	".gitignore": ".env\nsecrets/\n*.log\n",
	"app.ts": "a\n",
	".env": "TOKEN=user's own\n",
	"secrets/prod.key": "-----BEGIN KEY-----\n",
	"debug.log": "log\n",
};

for (const where of ["a git repository", "a plain folder"] as const) {
	describe(`in ${where}`, () => {
		it("a restore never deletes the user's ignored files after the agent rewrote .gitignore, nor does its preview list them", async () => {
			const project = makeProject(USER_FILES);
			if (where === "a git repository") userGit(project.cwd, "init", "-q");
			await project.prompt("p1", () => writeTree(project.cwd, { ".gitignore": "node_modules/\n", "app.ts": "b\n", "made.txt": "agent's\n" }));

			const restore = await project.restoreTo("p1");
			expect(restore.changes).toEqual([
				{ path: ".gitignore", action: "restore" },
				{ path: "app.ts", action: "restore" },
				{ path: "made.txt", action: "delete" },
			]);
			const report = await restore.apply();
			expect(report.failed).toEqual([]);
			expect(report.deleted).toEqual(["made.txt"]);
			const read = (path: string) => readFileSync(join(project.cwd, path), "utf8");
			expect([read(".env"), read("secrets/prod.key"), read("debug.log")]).toEqual(["TOKEN=user's own\n", "-----BEGIN KEY-----\n", "log\n"]);
			expect(read(".gitignore")).toBe(USER_FILES[".gitignore"]);
		});
	});
}

describe("what a restore deletes", () => {
	it("keeps ignored files even when restoring several prompts back, past a later run that saw them", async () => {
		const project = makeProject(USER_FILES);
		await project.prompt("p1", () => writeTree(project.cwd, { ".gitignore": "" }));
		await project.prompt("p2", () => writeTree(project.cwd, { "app.ts": "b\n", ".env": "TOKEN=agent\n" }));
		const restore = await project.restoreTo("p1");
		expect(restore.changes.map((change) => change.path)).toEqual([".gitignore", "app.ts"]);
		expect(restore.notRestored.map((file) => file.path)).toEqual(expect.arrayContaining([".env"]));
		await restore.apply();
		expect(readFileSync(join(project.cwd, ".env"), "utf8")).toBe("TOKEN=agent\n");
		expect(existsSync(join(project.cwd, "secrets/prod.key"))).toBe(true);
	});

	it("keeps a file the user created between prompts or after the last one, and still deletes what the agent created", async () => {
		const project = makeProject({ "app.ts": "a\n" });
		await project.prompt("p1", () => writeTree(project.cwd, { "first.txt": "agent\n" }));
		writeTree(project.cwd, { "between.txt": "user\n" });
		await project.prompt("p2", () => writeTree(project.cwd, { "second.txt": "agent\n" }));
		writeTree(project.cwd, { "after.txt": "user\n" });

		const restore = await project.restoreTo("p1");
		expect(restore.changes).toEqual([
			{ path: "first.txt", action: "delete" },
			{ path: "second.txt", action: "delete" },
		]);
		expect(restore.notRestored.map((file) => file.path).sort()).toEqual(["after.txt", "between.txt"]);
		await restore.apply();
		expect([existsSync(join(project.cwd, "between.txt")), existsSync(join(project.cwd, "after.txt"))]).toEqual([true, true]);
		expect([existsSync(join(project.cwd, "first.txt")), existsSync(join(project.cwd, "second.txt"))]).toEqual([false, false]);
	});

	it("keeps a nested repository's files once the agent removed its .git, since the snapshot never looked inside", async () => {
		const project = makeProject({ "top.txt": "t\n" });
		writeTree(project.cwd, { "vendor/lib/code.c": "1\n" });
		execFileSync("git", ["init", "-q"], { cwd: join(project.cwd, "vendor/lib") });
		await project.prompt("p1", () => {
			rmSync(join(project.cwd, "vendor/lib/.git"), { recursive: true });
			writeFileSync(join(project.cwd, "top.txt"), "u\n");
		});
		const restore = await project.restoreTo("p1");
		expect(restore.changes).toEqual([{ path: "top.txt", action: "restore" }]);
		await restore.apply();
		expect(readFileSync(join(project.cwd, "vendor/lib/code.c"), "utf8")).toBe("1\n");
	});

	it("keeps a file that was over the size limit when the snapshot was taken", async () => {
		const project = makeProject({ "app.ts": "a\n" }, { maxFileBytes: 100 });
		writeFileSync(join(project.cwd, "big.txt"), "x".repeat(500));
		await project.prompt("p1", () => writeFileSync(join(project.cwd, "big.txt"), "small now\n"));
		const restore = await project.restoreTo("p1");
		expect(restore.changes).toEqual([]);
		await restore.apply();
		expect(readFileSync(join(project.cwd, "big.txt"), "utf8")).toBe("small now\n");
	});
});
