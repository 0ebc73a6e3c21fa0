// A project tree of real files, described as a map from path to content.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir } from "./temp-dir.js";

/** Makes files under a new temporary folder (a path ending in "/" makes a folder); returns the folder. */
export function projectTree(files: Record<string, string | Buffer>): string {
	const root = tempDir();
	for (const [path, content] of Object.entries(files)) {
		if (path.endsWith("/")) mkdirSync(join(root, path), { recursive: true });
		else {
			mkdirSync(dirname(join(root, path)), { recursive: true });
			writeFileSync(join(root, path), content);
		}
	}
	return root;
}
