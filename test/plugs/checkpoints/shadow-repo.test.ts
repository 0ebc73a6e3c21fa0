// The shadow repository: it leaves the user's own repository exactly as it was, records what git would (the
// project's ignore rules, nested ones and info/exclude included), keeps large files out and says so, records
// bytes as they are whatever .gitattributes says, and never lists or reads an ignored folder.
import { closeSync, openSync, readFileSync, readdirSync, statSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeTree } from "../../support/project-tree.js";
import { Checkpointer } from "../../../src/plugs/checkpoints/checkpointer.js";
import { makeProject, treeState, userGit } from "./checkpoint-fixtures.js";

function userRepoProject() {
	const project = makeProject({ "src/app.ts": "v1\n", "README.md": "readme\n", ".gitignore": "dist/\n*.log\n" });
	userGit(project.cwd, "init", "-q");
	userGit(project.cwd, "add", "-A");
	userGit(project.cwd, "commit", "-q", "-m", "first");
	userGit(project.cwd, "branch", "feature");
	writeTree(project.cwd, { "src/app.ts": "stashed\n" });
	userGit(project.cwd, "stash", "-q");
	writeTree(project.cwd, { "src/app.ts": "staged\n" });
	userGit(project.cwd, "add", "src/app.ts");
	writeTree(project.cwd, { "src/app.ts": "unstaged\n", "new.txt": "untracked\n" });
	userGit(project.cwd, "config", "core.editor", "true");
	return project;
}

describe("the user's own repository", () => {
	const saved = { ...process.env };
	afterEach(() => {
		for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
		Object.assign(process.env, saved);
	});

	it("is byte-identical after checkpoints and a restore: HEAD, index, refs, stash, config and every other file in .git", async () => {
		const project = userRepoProject();
		const gitBefore = treeState(join(project.cwd, ".git"));
		const statusBefore = userGit(project.cwd, "status", "--porcelain=v2", "--branch");

		await project.prompt("p1", () => writeTree(project.cwd, { "src/app.ts": "agent\n", "more.ts": "m\n" }));
		await project.prompt("p2", () => writeTree(project.cwd, { "README.md": "agent\n" }));
		const report = await (await project.restoreTo("p1")).apply();
		expect(report.failed).toEqual([]);

		expect(treeState(join(project.cwd, ".git"))).toEqual(gitBefore);
		expect(userGit(project.cwd, "status", "--porcelain=v2", "--branch")).toBe(statusBefore);
		expect(userGit(project.cwd, "stash", "list")).toContain("stash@{0}");
	});

	it("stays untouched when loom runs with GIT_DIR, GIT_INDEX_FILE and GIT_OBJECT_DIRECTORY pointing at it (as from a git hook)", async () => {
		const project = userRepoProject();
		const gitBefore = treeState(join(project.cwd, ".git"));
		process.env.GIT_DIR = join(project.cwd, ".git");
		process.env.GIT_INDEX_FILE = join(project.cwd, ".git", "index");
		process.env.GIT_WORK_TREE = project.cwd;
		process.env.GIT_OBJECT_DIRECTORY = join(project.cwd, ".git", "objects");

		await project.prompt("p1", () => writeTree(project.cwd, { "src/app.ts": "agent\n" }));
		await (await project.restoreTo("p1")).apply();

		expect(treeState(join(project.cwd, ".git"))).toEqual(gitBefore);
		expect(readFileSync(join(project.cwd, "src/app.ts"), "utf8")).toBe("unstaged\n");
	});
});

describe("what a checkpoint records", () => {
	it("leaves out what the project's .gitignore files and .git/info/exclude leave out, and restores none of it", async () => {
		const project = makeProject({
			".gitignore": "*.log\nbuild/\n",
			"pkg/.gitignore": "cache/\n",
			"app.ts": "a\n",
			"debug.log": "log 1\n",
			"build/out.js": "out 1\n",
			"pkg/cache/c.bin": "c 1\n",
			"pkg/lib.ts": "lib 1\n",
			"secret.env": "KEY=1\n",
		});
		userGit(project.cwd, "init", "-q");
		writeFileSync(join(project.cwd, ".git/info/exclude"), "secret.env\n");

		await project.prompt("p1", () =>
			writeTree(project.cwd, {
				"app.ts": "b\n",
				"debug.log": "log 2\n",
				"build/out.js": "out 2\n",
				"build/new.js": "new\n",
				"pkg/cache/c.bin": "c 2\n",
				"pkg/lib.ts": "lib 2\n",
				"secret.env": "KEY=2\n",
			}),
		);
		const restore = await project.restoreTo("p1");
		expect(restore.changes).toEqual([
			{ path: "app.ts", action: "restore" },
			{ path: "pkg/lib.ts", action: "restore" },
		]);
		await restore.apply();
		const read = (path: string) => readFileSync(join(project.cwd, path), "utf8");
		expect([read("app.ts"), read("pkg/lib.ts")]).toEqual(["a\n", "lib 1\n"]);
		expect([read("debug.log"), read("build/out.js"), read("build/new.js"), read("pkg/cache/c.bin"), read("secret.env")]).toEqual([
			"log 2\n",
			"out 2\n",
			"new\n",
			"c 2\n",
			"KEY=2\n",
		]);
	});

	it("skips files over the size limit and binaries over the binary limit, lists them, and never deletes or overwrites them", async () => {
		const project = makeProject({ "small.txt": "s\n" }, { maxFileBytes: 2000, maxBinaryBytes: 500 });
		writeFileSync(join(project.cwd, "big.txt"), "x".repeat(3000));
		writeFileSync(join(project.cwd, "blob.bin"), Buffer.alloc(800));
		writeFileSync(join(project.cwd, "text.txt"), "t".repeat(800));

		await project.prompt("p1", () => {
			writeFileSync(join(project.cwd, "big.txt"), "y".repeat(3000));
			writeFileSync(join(project.cwd, "small.txt"), "z".repeat(5000));
			writeFileSync(join(project.cwd, "text.txt"), "u".repeat(800));
		});
		expect(project.notices.join("\n")).toMatch(/leave out files over the size limit.*big\.txt \(2\.9 KB\), blob\.bin \(800 B, binary\)/);
		expect(project.notices.join("\n")).toContain("small.txt (4.9 KB)");

		const restore = await project.restoreTo("p1");
		// text.txt is text under the limit: recorded. small.txt grew over the limit: left as it is now.
		expect(restore.changes).toEqual([{ path: "text.txt", action: "restore" }]);
		expect(restore.notRestored.map((file) => file.path).sort()).toEqual(["big.txt", "blob.bin", "small.txt"]);
		await restore.apply();
		expect(readFileSync(join(project.cwd, "big.txt"), "utf8")).toBe("y".repeat(3000));
		expect(readFileSync(join(project.cwd, "small.txt"), "utf8")).toBe("z".repeat(5000));
		expect(readFileSync(join(project.cwd, "text.txt"), "utf8")).toBe("t".repeat(800));
	});

	it("outside git, leaves out dependency and cache folders by default, besides what the project's .gitignore leaves out", async () => {
		const before = {
			".gitignore": "*.log\n",
			"src/app.ts": "a 1\n",
			"build/out.js": "out 1\n",
			"debug.log": "log 1\n",
			"node_modules/dep/index.js": "dep 1\n",
			"web/node_modules/dep/index.js": "nested dep 1\n",
			".venv/lib/site.py": "venv 1\n",
			"venv/lib/site.py": "venv 1\n",
			"pkg/__pycache__/m.pyc": "pyc 1\n",
			".next/cache.json": "next 1\n",
			".cache/x": "cache 1\n",
		};
		const project = makeProject(before);
		const changed = Object.keys(before).filter((path) => path !== ".gitignore");
		await project.prompt("p1", () => writeTree(project.cwd, Object.fromEntries(changed.map((path) => [path, `${path} 2\n`]))));
		const restore = await project.restoreTo("p1");
		// dist/, build/, target/ and vendor/ sometimes hold sources: recorded unless .gitignore says otherwise.
		expect(restore.changes).toEqual([
			{ path: "build/out.js", action: "restore" },
			{ path: "src/app.ts", action: "restore" },
		]);
	});

	it("inside git, leaves out only what git ignores: a dependency folder the project tracks is recorded", async () => {
		const project = makeProject({ "src/app.ts": "a 1\n", "node_modules/patched/index.js": "patched 1\n" });
		userGit(project.cwd, "init", "-q");
		await project.prompt("p1", () => writeTree(project.cwd, { "src/app.ts": "a 2\n", "node_modules/patched/index.js": "patched 2\n" }));
		expect((await project.restoreTo("p1")).changes).toEqual([
			{ path: "node_modules/patched/index.js", action: "restore" },
			{ path: "src/app.ts", action: "restore" },
		]);
	});

	it("names the files it leaves out once per project, not again in every session", async () => {
		const project = makeProject({ "small.txt": "s\n" }, { maxFileBytes: 2000 });
		writeFileSync(join(project.cwd, "big.txt"), "x".repeat(3000));
		await project.prompt("p1", () => writeFileSync(join(project.cwd, "small.txt"), "t\n"));
		expect(project.notices.filter((notice) => notice.includes("leave out"))).toHaveLength(1);

		const notices: string[] = [];
		const next = new Checkpointer({
			home: project.home,
			cwd: project.cwd,
			limits: { maxFileBytes: 2000 },
			session: () => ({ id: "session-2", file: join(project.home, "sessions", "session-2.jsonl") }),
			notify: (_level, text) => notices.push(text),
		});
		next.beginRun();
		await next.beforeChange([]);
		writeFileSync(join(project.cwd, "huge.txt"), "y".repeat(4000));
		await next.endRun();
		await next.dispose();
		expect(notices).toEqual([expect.stringMatching(/leave out files over the size limit, which \/rewind cannot restore: huge\.txt \(3\.9 KB\)\.$/)]);
	});

	it("records bytes exactly, whatever .gitattributes asks of line endings and filters", async () => {
		const crlf = "line one\r\nline two\r\n";
		const project = makeProject({ ".gitattributes": "* text=auto eol=lf\n*.dat filter=lfs diff=lfs merge=lfs\n", "win.txt": crlf, "data.dat": "raw\r\n" });
		await project.prompt("p1", () => writeTree(project.cwd, { "win.txt": "changed\n", "data.dat": "changed\n" }));
		await (await project.restoreTo("p1")).apply();
		expect(readFileSync(join(project.cwd, "win.txt"), "utf8")).toBe(crlf);
		expect(readFileSync(join(project.cwd, "data.dat"), "utf8")).toBe("raw\r\n");
	});

	it("neither lists nor reads an ignored build folder", async (context) => {
		const project = makeProject({ ".gitignore": "build/\n", "src/main.c": "int main;\n", "control.txt": "c\n" });
		const files = Array.from({ length: 50 }, (_, index) => join(project.cwd, "build", `part-${index}.o`));
		writeTree(project.cwd, Object.fromEntries(files.map((file) => [file.slice(project.cwd.length + 1), ""])));
		// Sparse: each file claims 1 MB without taking the disk.
		for (const file of files) truncateSync(file, 1024 * 1024);
		const old = new Date("2001-01-01T00:00:00Z");
		const older = new Date("2000-01-01T00:00:00Z");
		// relatime updates an access time older than the modification time on the next read or listing.
		for (const path of [...files, join(project.cwd, "build"), join(project.cwd, "control.txt")]) utimesSync(path, older, old);
		closeSync(openSync(join(project.cwd, "control.txt"), "r"));
		readFileSync(join(project.cwd, "control.txt"));
		if (statSync(join(project.cwd, "control.txt")).atimeMs === older.getTime()) {
			context.skip("this filesystem does not record access times, so reading cannot be observed");
		}

		await project.prompt("p1", () => writeTree(project.cwd, { "src/main.c": "int main(void);\n" }));
		expect((await project.restoreTo("p1")).changes).toEqual([{ path: "src/main.c", action: "restore" }]);

		expect(statSync(join(project.cwd, "build")).atimeMs).toBe(older.getTime());
		for (const file of files) expect(statSync(file).atimeMs).toBe(older.getTime());
		expect(readdirSync(join(project.cwd, "build"))).toHaveLength(50);
	});
});
