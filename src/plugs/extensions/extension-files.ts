// Which files are extensions: every module directly in an extensions folder, and every subfolder's index module;
// a path given on the command line is a module, or a folder with an index module.
import { statSync } from "node:fs";
import { extname, join } from "node:path";
import { directoryNames, entryExists } from "../../core/index.js";

/** Modules loom loads as extensions (TypeScript and JavaScript, ES modules or CommonJS). */
const EXTENSION_SUFFIXES = [".ts", ".mts", ".cts", ".js", ".mjs", ".cjs"] as const;

const INDEX_NAMES = EXTENSION_SUFFIXES.map((suffix) => `index${suffix}`);

function isModuleName(name: string): boolean {
	return (EXTENSION_SUFFIXES as readonly string[]).includes(extname(name)) && !/\.d\.[mc]?ts$/.test(name);
}

function kind(path: string): "file" | "dir" | undefined {
	try {
		const stat = statSync(path);
		return stat.isFile() ? "file" : stat.isDirectory() ? "dir" : undefined;
	} catch {
		return undefined;
	}
}

/** A folder's index module, if it has one. */
function indexModule(dir: string): string | undefined {
	return INDEX_NAMES.map((name) => join(dir, name)).find((path) => kind(path) === "file");
}

/** The extensions of a folder, sorted by name (hidden entries skipped); none when the folder does not exist. */
export function extensionFiles(folder: string): string[] {
	return directoryNames(folder)
		.sort()
		.flatMap((name) => {
			if (name.startsWith(".")) return [];
			const path = join(folder, name);
			const found = kind(path);
			if (found === "file") return isModuleName(name) ? [path] : [];
			if (found === "dir") return indexModule(path) ?? [];
			// A module's name that cannot be read as a file (a link leading nowhere, a FIFO): loading it says why.
			return isModuleName(name) && entryExists(path) ? [path] : [];
		});
}

/** The module a given path names: the file itself, or a folder's index module. Throws a message naming the path. */
export function extensionModule(path: string): string {
	const found = kind(path);
	if (found === "file") return path;
	if (found === "dir") {
		const index = indexModule(path);
		if (index) return index;
		throw new Error(`${path} is a folder without an index module (${INDEX_NAMES.slice(0, 2).join(", ")}, …).`);
	}
	// Something is there that is not a file or folder: reading it says what.
	if (entryExists(path)) return path;
	throw new Error(`No extension at ${path}.`);
}
