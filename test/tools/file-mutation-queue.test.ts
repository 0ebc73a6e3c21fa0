import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fileQueueKey, withFileMutationQueue } from "../../src/tools/file-mutation-queue.js";
import { tempDir } from "../support/temp-dir.js";
import { sleep } from "../support/wait-for.js";

describe("withFileMutationQueue", () => {
	it("runs work on one file one at a time, in call order", async () => {
		const dir = tempDir();
		const file = path.join(dir, "a.txt");
		const log: string[] = [];
		let active = 0;
		let maxActive = 0;
		const job = (name: string, ms: number) =>
			withFileMutationQueue(file, async () => {
				active++;
				maxActive = Math.max(maxActive, active);
				log.push(`start ${name}`);
				await sleep(ms);
				log.push(`end ${name}`);
				active--;
				return name;
			});
		const results = await Promise.all([job("1", 30), job("2", 1), job("3", 10)]);
		expect(results).toEqual(["1", "2", "3"]);
		expect(maxActive).toBe(1);
		expect(log).toEqual(["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"]);
	});

	it("lets different files proceed in parallel", async () => {
		const dir = tempDir();
		let active = 0;
		let maxActive = 0;
		const job = (name: string) =>
			withFileMutationQueue(path.join(dir, name), async () => {
				active++;
				maxActive = Math.max(maxActive, active);
				await sleep(30);
				active--;
			});
		await Promise.all([job("a"), job("b"), job("c")]);
		expect(maxActive).toBe(3);
	});

	it("keeps going after a failed job", async () => {
		const dir = tempDir();
		const file = path.join(dir, "a.txt");
		const failing = withFileMutationQueue(file, async () => {
			throw new Error("boom");
		});
		const next = withFileMutationQueue(file, async () => "ok");
		await expect(failing).rejects.toThrow("boom");
		await expect(next).resolves.toBe("ok");
	});

	it("shares one queue between a file and a symlink to it", async () => {
		const dir = tempDir();
		const file = path.join(dir, "real.txt");
		await fs.writeFile(file, "x");
		const link = path.join(dir, "link.txt");
		await fs.symlink(file, link);
		expect(fileQueueKey(link)).toBe(fileQueueKey(file));

		let active = 0;
		let maxActive = 0;
		const job = (p: string) =>
			withFileMutationQueue(p, async () => {
				active++;
				maxActive = Math.max(maxActive, active);
				await sleep(20);
				active--;
			});
		await Promise.all([job(file), job(link), job(file)]);
		expect(maxActive).toBe(1);
	});

	it("keys a file that does not exist yet by its resolved path, stable once it exists", async () => {
		const dir = tempDir();
		const aliasDir = path.join(dir, "alias");
		await fs.symlink(dir, aliasDir);
		const viaAlias = path.join(aliasDir, "sub", "..", "new.txt");
		const before = fileQueueKey(viaAlias);
		expect(before).toBe(path.join(dir, "new.txt"));
		await fs.writeFile(path.join(dir, "new.txt"), "");
		expect(fileQueueKey(viaAlias)).toBe(before);
	});
});
