import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { atomicWriteFile } from "../../../../src/core/lib/files/atomic-write.js";
import { FileChangedError, readSnapshot } from "../../../../src/core/lib/files/file-snapshot.js";
import { tempDir } from "../../../support/temp-dir.js";

describe("atomicWriteFile", () => {
	it("creates parent directories and leaves no temporary file behind", async () => {
		const dir = tempDir();
		const file = path.join(dir, "a", "b", "c.txt");
		await atomicWriteFile(file, "hello");
		expect(await fs.readFile(file, "utf8")).toBe("hello");
		expect(await fs.readdir(path.dirname(file))).toEqual(["c.txt"]);
	});

	it("keeps the mode of the file it replaces", async () => {
		const dir = tempDir();
		const file = path.join(dir, "script.sh");
		await fs.writeFile(file, "old");
		await fs.chmod(file, 0o750);
		await atomicWriteFile(file, "new");
		expect((await fs.stat(file)).mode & 0o777).toBe(0o750);
		expect(await fs.readFile(file, "utf8")).toBe("new");
	});

	it("replaces the file by rename, so a reader holding the old file still sees the old content", async () => {
		const dir = tempDir();
		const file = path.join(dir, "f.txt");
		await fs.writeFile(file, "old content");
		const inodeBefore = (await fs.stat(file)).ino;
		const handle = await fs.open(file, "r");
		try {
			await atomicWriteFile(file, "new content");
			// A write in place would change what the open handle reads; a rename leaves the old inode intact.
			expect((await handle.readFile()).toString()).toBe("old content");
		} finally {
			await handle.close();
		}
		expect((await fs.stat(file)).ino).not.toBe(inodeBefore);
		expect(await fs.readFile(file, "utf8")).toBe("new content");
	});

	it("writes through a symlink and keeps the link", async () => {
		const dir = tempDir();
		const target = path.join(dir, "target.txt");
		const link = path.join(dir, "link.txt");
		await fs.writeFile(target, "old");
		await fs.symlink(target, link);
		await atomicWriteFile(link, "new");
		expect((await fs.lstat(link)).isSymbolicLink()).toBe(true);
		expect(await fs.readFile(target, "utf8")).toBe("new");
	});

	it("refuses to replace a directory and leaves the directory's neighbours untouched", async () => {
		const dir = tempDir();
		const file = path.join(dir, "f.txt");
		await fs.writeFile(file, "precious");
		await fs.mkdir(path.join(dir, "f.dir"));
		await expect(atomicWriteFile(path.join(dir, "f.dir"), "x")).rejects.toThrow(/is a directory/);
		expect(await fs.readFile(file, "utf8")).toBe("precious");
		expect((await fs.readdir(dir)).sort()).toEqual(["f.dir", "f.txt"]);
	});

	it("refuses to replace a file another program rewrote since it was read, and writes nothing", async () => {
		const dir = tempDir();
		const file = path.join(dir, "f.txt");
		await fs.writeFile(file, "version 1\n");
		const { snapshot } = await readSnapshot(file);
		try {
			await fs.writeFile(file, "version 2\n");
			await expect(atomicWriteFile(file, "mine\n", { unchangedSince: snapshot })).rejects.toThrow(FileChangedError);
			expect(await fs.readFile(file, "utf8")).toBe("version 2\n");
			expect(await fs.readdir(dir)).toEqual(["f.txt"]);
		} finally {
			await snapshot.handle.close();
		}
	});

	it("refuses a file replaced by another program's rename since it was read", async () => {
		const dir = tempDir();
		const file = path.join(dir, "f.txt");
		await fs.writeFile(file, "same\n");
		const { snapshot } = await readSnapshot(file);
		try {
			await fs.writeFile(path.join(dir, "other"), "same\n");
			await fs.rename(path.join(dir, "other"), file);
			await expect(atomicWriteFile(file, "mine\n", { unchangedSince: snapshot })).rejects.toThrow(/changed on disk while editing/);
		} finally {
			await snapshot.handle.close();
		}
	});

	it("carries over what another program appended since the read, after the new content", async () => {
		const dir = tempDir();
		const file = path.join(dir, "log.txt");
		await fs.writeFile(file, "head\nline 1\n");
		const { snapshot } = await readSnapshot(file);
		try {
			await fs.appendFile(file, "line 2\n");
			await atomicWriteFile(file, "HEAD\nline 1\n", { unchangedSince: snapshot });
			expect(await fs.readFile(file, "utf8")).toBe("HEAD\nline 1\nline 2\n");
		} finally {
			await snapshot.handle.close();
		}
	});
});
