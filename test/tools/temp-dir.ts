// Temporary directories for tool tests, removed after each test file.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

const created: string[] = [];

export async function makeTempDir(prefix = "loom-tools-"): Promise<string> {
	const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
	created.push(dir);
	return dir;
}

afterAll(async () => {
	await Promise.all(created.map((dir) => fs.rm(dir, { recursive: true, force: true })));
});
