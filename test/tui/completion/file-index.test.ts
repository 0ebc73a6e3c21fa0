import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FileIndex } from "../../../src/tui/completion/file-index.js";
import { FileMatcher, SLICE } from "../../../src/tui/completion/file-matcher.js";
import { projectTree } from "../../support/project-tree.js";
import { tempDir } from "../../support/temp-dir.js";

async function indexed(root: string): Promise<string[]> {
	const index = new FileIndex(root);
	await index.ready();
	return [...index.snapshot().paths];
}

describe("the project's file index", () => {
	it("lists files and directories, each folder's entries after it, skipping what .gitignore files say and .git itself", async () => {
		const root = projectTree({
			".gitignore": "node_modules/\n*.log\n/build\n!keep.log\n",
			"src/main.ts": "",
			"src/debug.log": "",
			"src/keep.log": "",
			"src/.gitignore": "generated/\n",
			"src/generated/out.ts": "",
			"src/lib/build/x.ts": "",
			"build/out.js": "",
			"node_modules/pkg/index.js": "",
			".git/HEAD": "",
			"README.md": "",
		});
		expect(await indexed(root)).toEqual([".gitignore", "README.md", "src/", "src/.gitignore", "src/keep.log", "src/lib/", "src/lib/build/", "src/lib/build/x.ts", "src/main.ts"]);
	});

	it("lists a symbolic link to a directory without walking into it (a link to a parent would loop)", async () => {
		const root = projectTree({ "a/file.txt": "" });
		symlinkSync(root, join(root, "a", "loop"));
		expect(await indexed(root)).toEqual(["a/", "a/file.txt", "a/loop"]);
	});

	it("walks again, in the background, when asked after its list has aged; the old list serves meanwhile", async () => {
		const root = projectTree({ "one.txt": "" });
		let now = 0;
		const index = new FileIndex(root, { now: () => now, refreshMs: 1000 });
		await index.ready();
		writeFileSync(join(root, "two.txt"), "");
		now = 500;
		expect(index.snapshot().paths).toEqual(["one.txt"]);
		await index.ready();
		expect(index.snapshot().paths).toEqual(["one.txt"]);
		now = 2000;
		expect(index.snapshot().paths).toEqual(["one.txt"]);
		await index.ready();
		expect(index.snapshot().paths).toEqual(["one.txt", "two.txt"]);
	});

	it("offers the shallowest entries first before anything is typed", async () => {
		const root = projectTree({ "a/b/c/deep.txt": "", "z.txt": "" });
		const index = new FileIndex(root);
		await index.ready();
		const matcher = new FileMatcher(index);
		const told = new Promise<void>((resolve) => matcher.subscribe(resolve));
		matcher.matches("");
		await told;
		expect(matcher.matches("").paths).toEqual(["a/", "z.txt", "a/b/", "a/b/c/", "a/b/c/deep.txt"]);
	});

	it("stops at its limit of files", async () => {
		const root = projectTree(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}.txt`, ""])));
		const index = new FileIndex(root, { maxFiles: 10 });
		await index.ready();
		expect(index.snapshot().paths).toHaveLength(10);
	});
});

describe("in a 50,000-file tree", () => {
	let root: string;
	beforeAll(async () => {
		root = tempDir("loom-big-tree-");
		for (let d = 0; d < 250; d++) {
			const dir = join(root, `pkg${d}`, "src");
			mkdirSync(dir, { recursive: true });
			await Promise.all(Array.from({ length: 200 }, (_, f) => writeFile(join(dir, `module${f}.ts`), "")));
		}
		writeFileSync(join(root, "pkg7", "src", "needle-parser.ts"), "");
	}, 120_000);

	/** Counts turns of the event loop until `done` settles: work that never yields counts one. */
	async function turnsWhile(done: Promise<unknown>): Promise<number> {
		let settled = false;
		void done.then(() => (settled = true));
		let turns = 0;
		while (!settled) {
			await new Promise((resolve) => setImmediate(resolve));
			turns++;
		}
		return turns;
	}

	it("indexes without holding the event loop: other work runs many times while it walks", async () => {
		const index = new FileIndex(root);
		index.snapshot();
		const turns = await turnsWhile(index.ready());
		expect(index.snapshot().paths.length).toBe(50_000 + 500 + 1);
		// The walk works in slices, between which keystrokes are handled.
		expect(turns).toBeGreaterThanOrEqual(5);
	});

	it("matches in slices, the newest query replacing older ones, and narrows from the previous matches", async () => {
		const index = new FileIndex(root);
		await index.ready();
		const matcher = new FileMatcher(index);
		const changed = () => new Promise<void>((resolve) => matcher.subscribe(resolve));
		let told = changed();
		expect(matcher.matches("pars").pending).toBe(true);
		// Another query before the first is done: the first is dropped.
		expect(matcher.matches("parse").pending).toBe(true);
		await told;
		const found = matcher.matches("parse");
		expect(found).toMatchObject({ query: "parse", pending: false });
		expect(found.paths[0]).toBe("pkg7/src/needle-parser.ts");
		expect(matcher.lastSlices).toBeGreaterThanOrEqual(Math.ceil(50_501 / SLICE));

		// A longer query is matched only against the shorter one's matches: one slice.
		told = changed();
		matcher.matches("parser");
		await told;
		expect(matcher.matches("parser").paths).toEqual(["pkg7/src/needle-parser.ts"]);
		expect(matcher.lastSlices).toBe(1);
	});
});
