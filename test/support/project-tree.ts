// A project tree of real files, described as a map from path to content.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir } from "./temp-dir.js";

/** Makes files under a new temporary folder (a path ending in "/" makes a folder); returns the folder. */
export function projectTree(files: Record<string, string | Buffer>): string {
	const root = tempDir();
	writeTree(root, files);
	return root;
}

/** Writes a file, making the folders it needs; returns its path. */
export function writeFileAt(path: string, content: string | Buffer): string {
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, content);
	return path;
}

/** Makes files (and the folders they need) under `root`; a path ending in "/" makes a folder. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
	for (const [path, content] of Object.entries(files)) {
		if (path.endsWith("/")) mkdirSync(join(root, path), { recursive: true });
		else writeFileAt(join(root, path), content);
	}
}
