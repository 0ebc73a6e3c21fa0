// The one directory walker the search tools and the screen share: order, .gitignore as git reads it, depth,
// stopping, aborting, and links never followed.
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AbortedError } from "../../../../src/core/lib/abort.js";
import { type TreeEntry, walkTree, type WalkOptions } from "../../../../src/core/lib/files/walk-tree.js";
import { projectTree } from "../../../support/project-tree.js";
import { tempDir } from "../../../support/temp-dir.js";

async function walked(root: string, options: WalkOptions = {}): Promise<string[]> {
	const paths: string[] = [];
	await walkTree(root, (entry) => void paths.push(entry.kind === "directory" ? `${entry.path}/` : entry.path), options);
	return paths;
}

describe("walkTree", () => {
	it("visits each folder's contents right after it, every folder in name order", async () => {
		const root = projectTree({ "b.txt": "", "a/z.txt": "", "a/y/x.txt": "", "c/w.txt": "", ".hidden": "" });
		expect(await walked(root)).toEqual([".hidden", "a/", "a/y/", "a/y/x.txt", "a/z.txt", "b.txt", "c/", "c/w.txt"]);
	});

	it("skips .git and what the .gitignore files exclude, each file's patterns relative to its folder", async () => {
		const root = projectTree({
			".git/HEAD": "",
			".gitignore": "*.log\nbuild/\n/top-only.txt\n",
			"app.log": "",
			"build/out.js": "",
			"top-only.txt": "",
			"src/top-only.txt": "",
			"src/.gitignore": "generated.ts\n",
			"src/generated.ts": "",
			"src/main.ts": "",
			"other/generated.ts": "",
		});
		expect(await walked(root)).toEqual([".gitignore", "other/", "other/generated.ts", "src/", "src/.gitignore", "src/main.ts", "src/top-only.txt"]);
	});

	it("lets a deeper .gitignore re-include what a shallower one excludes, folders included", async () => {
		const root = projectTree({
			".gitignore": "*.log\nbuild/\n",
			"keep/.gitignore": "!important.log\n!build/\n",
			"keep/important.log": "",
			"keep/other.log": "",
			"keep/build/kept.js": "",
			"build/gone.js": "",
		});
		expect(await walked(root)).toEqual([".gitignore", "keep/", "keep/.gitignore", "keep/build/", "keep/build/kept.js", "keep/important.log"]);
	});

	it("inside a repository, applies the .gitignore files above the walk's folder and .git/info/exclude", async () => {
		const repo = projectTree({
			".git/info/exclude": "secret.txt\n",
			".gitignore": "*.tmp\npackages/app/dist/\n",
			"packages/.gitignore": "cache/\n",
			"packages/app/a.ts": "",
			"packages/app/b.tmp": "",
			"packages/app/secret.txt": "",
			"packages/app/cache/c.ts": "",
			"packages/app/dist/d.js": "",
		});
		expect(await walked(join(repo, "packages/app"))).toEqual(["a.ts"]);
		expect(await walked(join(repo, "packages/app"), { gitignore: false })).toEqual(["a.ts", "b.tmp", "cache/", "cache/c.ts", "dist/", "dist/d.js", "secret.txt"]);
	});

	it("walks a folder asked for by name even when it is ignored itself, as an explicit search would", async () => {
		const repo = projectTree({ ".git/": "", ".gitignore": "node_modules/\n", "node_modules/lib/index.js": "", "node_modules/lib/.gitignore": "*.map\n", "node_modules/lib/index.js.map": "" });
		expect(await walked(join(repo, "node_modules/lib"))).toEqual([".gitignore", "index.js"]);
	});

	it("stops at maxDepth, and when the visitor says so", async () => {
		const root = projectTree({ "a/b/c.txt": "", "d.txt": "", "e.txt": "" });
		expect(await walked(root, { maxDepth: 1 })).toEqual(["a/", "d.txt", "e.txt"]);
		const seen: string[] = [];
		await walkTree(root, (entry) => {
			seen.push(entry.path);
			return entry.path !== "a/b";
		});
		expect(seen).toEqual(["a", "a/b"]);
	});

	it("reports a link as a link and never follows it, so a loop of links ends", async () => {
		const root = projectTree({ "real/file.txt": "" });
		symlinkSync(join(root, "real"), join(root, "link"));
		symlinkSync(root, join(root, "real/loop"));
		const entries: TreeEntry[] = [];
		await walkTree(root, (entry) => void entries.push(entry));
		expect(entries.map((entry) => [entry.path, entry.kind, entry.depth])).toEqual([
			["link", "symlink", 1],
			["real", "directory", 1],
			["real/file.txt", "file", 2],
			["real/loop", "symlink", 2],
		]);
		expect(entries[2]!.absolute).toBe(join(root, "real/file.txt"));
	});

	it("rejects with AbortedError when aborted, during a long walk too", async () => {
		const root = projectTree({ "a.txt": "" });
		await expect(walkTree(root, () => {}, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortedError);
		const big = tempDir();
		for (let i = 0; i < 200; i++) mkdirSync(join(big, `d${i}`, "e", "f"), { recursive: true });
		const controller = new AbortController();
		let visited = 0;
		const walk = walkTree(big, () => {
			visited++;
			const until = performance.now() + 0.2;
			while (performance.now() < until);
		}, { signal: controller.signal });
		setTimeout(() => controller.abort(), 5);
		await expect(walk).rejects.toBeInstanceOf(AbortedError);
		expect(visited).toBeLessThan(600);
	});

	it("fails for a root that cannot be listed, and goes on past a folder that vanished", async () => {
		await expect(walkTree(join(tempDir(), "missing"), () => {})).rejects.toThrow(/ENOENT/);
		const root = projectTree({ "a/x.txt": "", "b/y.txt": "", "c.txt": "" });
		const errors: string[] = [];
		const seen: string[] = [];
		await walkTree(root, (entry) => {
			seen.push(entry.path);
			if (entry.path === "a/x.txt") rmSync(join(root, "b"), { recursive: true });
		}, { onError: (path, error) => errors.push(`${path}: ${error.code}`) });
		expect(seen).toEqual(["a", "a/x.txt", "b", "c.txt"]);
		expect(errors).toEqual(["b: ENOENT"]);
	});
});
