// The filesystem questions many places share: a folder's names, whether a path is a folder, where a path really
// is, and which repository holds a folder. None of them throws for a path that is missing or odd.
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { directoryNames, isDirectory, realpathOrSelf, repositoryTop } from "../../../../src/core/lib/files/paths.js";
import { projectTree } from "../../../support/project-tree.js";

describe("directoryNames", () => {
	it("lists a folder's names, hidden ones included", () => {
		const root = projectTree({ "a.txt": "", ".hidden": "", "sub/b.txt": "" });
		expect(directoryNames(root).sort()).toEqual([".hidden", "a.txt", "sub"]);
	});

	it("lists nothing for a folder that is missing, or a file", () => {
		const root = projectTree({ "a.txt": "" });
		expect(directoryNames(join(root, "missing"))).toEqual([]);
		expect(directoryNames(join(root, "a.txt"))).toEqual([]);
	});
});

describe("isDirectory", () => {
	it("is true for a folder and a link to one, false for a file, a missing path and a dangling link", () => {
		const root = projectTree({ "a.txt": "", "sub/": "" });
		symlinkSync(join(root, "sub"), join(root, "to-sub"));
		symlinkSync(join(root, "gone"), join(root, "dangling"));
		expect(isDirectory(join(root, "sub"))).toBe(true);
		expect(isDirectory(join(root, "to-sub"))).toBe(true);
		expect(isDirectory(join(root, "a.txt"))).toBe(false);
		expect(isDirectory(join(root, "missing"))).toBe(false);
		expect(isDirectory(join(root, "dangling"))).toBe(false);
	});
});

describe("realpathOrSelf", () => {
	it("resolves links, and gives a path that does not exist back as it was given", () => {
		const root = projectTree({ "real/": "" });
		symlinkSync(join(root, "real"), join(root, "link"));
		expect(realpathOrSelf(join(root, "link"))).toBe(join(root, "real"));
		expect(realpathOrSelf(join(root, "missing", "file"))).toBe(join(root, "missing", "file"));
	});
});

describe("repositoryTop", () => {
	it("finds the nearest folder holding .git, a folder or a worktree's file, from the folder itself or below it", () => {
		const root = projectTree({ "repo/.git/HEAD": "", "repo/src/deep/x.ts": "", "repo/worktree/.git": "gitdir: elsewhere\n", "repo/worktree/lib/": "" });
		expect(repositoryTop(join(root, "repo"))).toBe(join(root, "repo"));
		expect(repositoryTop(join(root, "repo", "src", "deep"))).toBe(join(root, "repo"));
		expect(repositoryTop(join(root, "repo", "worktree", "lib"))).toBe(join(root, "repo", "worktree"));
	});

	it("finds none outside any repository", () => {
		const root = projectTree({ "plain/sub/": "" });
		const top = repositoryTop(join(root, "plain", "sub"));
		// The temporary folder itself may sit inside a repository on some machines; nothing at or below `root` is one.
		expect(top === undefined || !top.startsWith(root)).toBe(true);
	});
});
