// Temporary working directories and LOOM_HOMEs for end-to-end tests, removed when the file's tests end.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

export interface Workspace {
	cwd: string;
	home: string;
}

export function useWorkspaces(): () => Workspace {
	const roots: string[] = [];
	afterAll(() => {
		for (const root of roots) rmSync(root, { recursive: true, force: true });
	});
	return () => {
		const root = mkdtempSync(join(tmpdir(), "loom-cli-"));
		roots.push(root);
		const cwd = join(root, "project");
		const home = join(root, "loom-home");
		mkdirSync(cwd);
		mkdirSync(home);
		return { cwd, home };
	};
}

export function jsonLines(stdout: string): any[] {
	return stdout
		.trimEnd()
		.split("\n")
		.map((line) => JSON.parse(line));
}

/** A session file's lines, parsed: the header, then the entries. */
export function sessionLines(file: string): any[] {
	return jsonLines(readFileSync(file, "utf8"));
}

/** The messages a session file records, in file order. */
export function sessionMessages(file: string): any[] {
	return sessionLines(file)
		.filter((line) => line.type === "message")
		.map((line) => line.message);
}
