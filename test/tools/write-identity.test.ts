// write and edit replace a file's content, never its identity: a symlink stays a link (a dangling one gets its
// target created), the owner and group stay, and a file with several hard links is written in place so every
// name sees the new content.
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { atomicWriteFile } from "../../src/core/lib/files/atomic-write.js";
import { createEditTool, createWriteTool } from "../../src/tools/index.js";
import { tempDir } from "../support/temp-dir.js";

const isRoot = process.getuid?.() === 0;

describe("writing keeps the file's identity", () => {
	it("creates the target of a dangling symlink, relative to the link, and keeps the link", async () => {
		const dir = tempDir();
		await fs.mkdir(path.join(dir, "real"));
		const link = path.join(dir, "notes.md");
		await fs.symlink("real/sub/notes.md", link);
		await createWriteTool(dir).execute("w", { path: "notes.md", content: "through the link" });
		expect((await fs.lstat(link)).isSymbolicLink()).toBe(true);
		expect(await fs.readlink(link)).toBe("real/sub/notes.md");
		expect(await fs.readFile(path.join(dir, "real", "sub", "notes.md"), "utf8")).toBe("through the link");
		expect((await fs.readdir(dir)).sort()).toEqual(["notes.md", "real"]);
	});

	it("follows a chain of symlinks to the file at its end", async () => {
		const dir = tempDir();
		await fs.writeFile(path.join(dir, "target.txt"), "old");
		await fs.symlink("target.txt", path.join(dir, "first"));
		await fs.symlink("first", path.join(dir, "second"));
		await atomicWriteFile(path.join(dir, "second"), "new");
		expect((await fs.lstat(path.join(dir, "second"))).isSymbolicLink()).toBe(true);
		expect((await fs.lstat(path.join(dir, "first"))).isSymbolicLink()).toBe(true);
		expect(await fs.readFile(path.join(dir, "target.txt"), "utf8")).toBe("new");
	});

	it("writes a file with two hard links in place: both names see the new content, one inode", async () => {
		const dir = tempDir();
		const a = path.join(dir, "a.txt");
		const b = path.join(dir, "b.txt");
		await fs.writeFile(a, "one\ntwo\nthree\n");
		await fs.chmod(a, 0o640);
		await fs.link(a, b);
		const inode = (await fs.stat(a)).ino;

		await createEditTool(dir).execute("e", { path: "a.txt", edits: [{ oldText: "two", newText: "2" }] });
		expect(await fs.readFile(b, "utf8")).toBe("one\n2\nthree\n");
		await createWriteTool(dir).execute("w", { path: "b.txt", content: "short" });
		expect(await fs.readFile(a, "utf8")).toBe("short");

		const stat = await fs.stat(a);
		expect(stat.ino).toBe(inode);
		expect(stat.nlink).toBe(2);
		expect(stat.mode & 0o777).toBe(0o640);
		expect((await fs.readdir(dir)).sort()).toEqual(["a.txt", "b.txt"]);
	});

	it.skipIf(!isRoot)("keeps the owner and group of a file owned by another user (run as root)", async () => {
		const dir = tempDir();
		const file = path.join(dir, "theirs.txt");
		await fs.writeFile(file, "alpha\n");
		await fs.chown(file, 1234, 1234);
		await createEditTool(dir).execute("e", { path: "theirs.txt", edits: [{ oldText: "alpha", newText: "beta" }] });
		let stat = await fs.stat(file);
		expect([stat.uid, stat.gid]).toEqual([1234, 1234]);
		await createWriteTool(dir).execute("w", { path: "theirs.txt", content: "gamma\n" });
		stat = await fs.stat(file);
		expect([stat.uid, stat.gid]).toEqual([1234, 1234]);
		expect(await fs.readFile(file, "utf8")).toBe("gamma\n");
	});
});
