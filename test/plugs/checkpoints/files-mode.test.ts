// Where the work tree is not worth snapshotting (too many files, a home directory) or git is missing, loom keeps
// the pre-images of the files write and edit change, says once what that means, and restores those files.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Checkpointer } from "../../../src/plugs/checkpoints/checkpointer.js";
import { notAProject } from "../../../src/plugs/checkpoints/project-root.js";
import { writeTree } from "../../support/project-tree.js";
import { makeProject } from "./checkpoint-fixtures.js";

function bigProject() {
	// Five files and a limit of three: the first snapshot finds too many and gives up.
	return makeProject({ "a.txt": "a0\n", "b.txt": "b0\n", "c.txt": "c0\n", "d.txt": "d0\n", "e.txt": "e0\n" }, { maxFiles: 3 });
}

describe("files mode", () => {
	it("says once that only write and edit are restorable, then restores those files and nothing bash did", async () => {
		const project = bigProject();
		await project.prompt("p1", async (tell) => {
			await tell(["a.txt"]);
			writeTree(project.cwd, { "a.txt": "a1\n" });
			await tell(["new/dir/created.txt"]);
			writeTree(project.cwd, { "new/dir/created.txt": "n\n" });
			// bash: tells no paths.
			await tell([]);
			writeTree(project.cwd, { "b.txt": "b1\n" });
		});
		await project.prompt("p2", async (tell) => {
			await tell(["a.txt", join(project.cwd, "c.txt")]);
			writeTree(project.cwd, { "a.txt": "a2\n", "c.txt": "c2\n" });
		});
		expect(project.notices).toHaveLength(1);
		expect(project.notices[0]).toMatch(/has more than 3 files to record, so the working tree is not snapshotted; \/rewind can restore only files changed by write and edit, not what bash changed/);

		const restore = await project.restoreTo("p1");
		expect(restore.note).toMatch(/changes made by bash or other tools are not restored/);
		expect(restore.changes).toEqual([
			{ path: "a.txt", action: "restore" },
			{ path: "c.txt", action: "restore" },
			{ path: "new/dir/created.txt", action: "delete" },
		]);
		expect(restore.userChanged).toEqual([]);
		await restore.apply();
		const read = (path: string) => readFileSync(join(project.cwd, path), "utf8");
		expect([read("a.txt"), read("b.txt"), read("c.txt")]).toEqual(["a0\n", "b1\n", "c0\n"]);
		// The folders write made for the new file went with it.
		expect(existsSync(join(project.cwd, "new"))).toBe(false);
	});

	it("says that the tree is not snapshotted once per project, not again in the next session or process", async () => {
		const first = bigProject();
		await first.prompt("p1", () => writeTree(first.cwd, { "a.txt": "a1\n" }));
		expect(first.notices).toHaveLength(1);
		// What the next `loom -p` in the same folder sets up: a checkpointer of its own, another session.
		const notices: string[] = [];
		const next = new Checkpointer({
			home: first.home,
			cwd: first.cwd,
			limits: { maxFiles: 3 },
			session: () => ({ id: "session-2", file: join(first.home, "sessions", "session-2.jsonl") }),
			notify: (_level, text) => notices.push(text),
		});
		next.beginRun();
		next.bindPrompt("q1");
		await next.beforeChange(["b.txt"]);
		writeTree(first.cwd, { "b.txt": "b1\n" });
		await next.endRun();
		expect(notices).toEqual([]);
		// Still restorable from files mode, as said.
		const restore = await next.prepare("q1");
		expect(typeof restore === "string" ? restore : restore.changes).toEqual([{ path: "b.txt", action: "restore" }]);
	});

	it("detects a file the user changed after the run by its content, and recreates one the user deleted", async () => {
		const project = bigProject();
		await project.prompt("p1", async (tell) => {
			await tell(["a.txt", "d.txt"]);
			writeTree(project.cwd, { "a.txt": "agent\n", "d.txt": "agent\n" });
		});
		writeFileSync(join(project.cwd, "a.txt"), "user\n");
		rmSync(join(project.cwd, "d.txt"));

		const restore = await project.restoreTo("p1");
		expect(restore.changes).toEqual([
			{ path: "a.txt", action: "restore" },
			{ path: "d.txt", action: "recreate" },
		]);
		expect(restore.userChanged).toEqual(["a.txt", "d.txt"]);
		await restore.apply({ keep: ["a.txt"] });
		expect(readFileSync(join(project.cwd, "a.txt"), "utf8")).toBe("user\n");
		expect(readFileSync(join(project.cwd, "d.txt"), "utf8")).toBe("d0\n");
	});

	it("never records a path outside the working tree", async () => {
		const project = bigProject();
		const outside = join(project.home, "outside.txt");
		writeFileSync(outside, "o\n");
		await project.prompt("p1", async (tell) => {
			await tell([outside, "../escape.txt"]);
			writeFileSync(outside, "changed\n");
		});
		expect((await project.restoreTo("p1")).changes).toEqual([]);
	});

	it("is the mode for a home directory or a filesystem root, which hold far more than a project", () => {
		expect(notAProject(homedir())).toMatch(/is your home directory/);
		expect(notAProject("/")).toMatch(/is the root of the filesystem/);
		expect(notAProject(join(homedir(), "code", "app"))).toBeUndefined();
	});
});
