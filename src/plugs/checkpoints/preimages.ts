// The fallback where the work tree is not snapshotted (no git, or a tree too large to be worth it): each file a
// write or edit is about to change is copied first, once per run, and its content hash is taken when the run
// ends. Changes made any other way (bash, a code generator) are not known here.
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { readCheckedFile, expandHome } from "../../core/index.js";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Preimage } from "./checkpoint-log.js";

/** A path a tool call names, relative to the work tree; undefined when it lies outside (never recorded). */
export function workTreePath(workTree: string, cwd: string, given: string): string | undefined {
	const absolute = resolve(cwd, expandHome(given.trim()));
	const rel = relative(workTree, absolute);
	if (rel === "" || rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel)) return undefined;
	return rel.split(sep).join("/");
}

/**
 * Copies `path` (relative to `workTree`) into `store` (a file path relative to `projectDir`) unless it is larger
 * than `maxBytes`. Only regular files are read; a path that does not exist is recorded as created by the run.
 */
export function capturePreimage(workTree: string, path: string, projectDir: string, store: string, maxBytes: number): Preimage {
	const file = join(workTree, path);
	let stat;
	try {
		stat = lstatSync(file);
	} catch {
		return { path, existed: false, base: existingParent(workTree, path) };
	}
	if (!stat.isFile() || stat.size > maxBytes) return { path, existed: true, skipped: true };
	const bytes = readRegular(file, maxBytes);
	if (bytes === undefined) return { path, existed: true, skipped: true };
	const target = join(projectDir, store);
	mkdirSync(join(target, ".."), { recursive: true, mode: 0o700 });
	writeFileSync(target, bytes, { mode: 0o600 });
	return { path, existed: true, file: store, mode: stat.mode & 0o7777, hash: sha256(bytes) };
}

/** The deepest folder above `path` that exists, relative to the work tree ("" for the work tree itself). */
function existingParent(workTree: string, path: string): string {
	const parts = path.split("/").slice(0, -1);
	for (let count = parts.length; count > 0; count--) {
		const dir = parts.slice(0, count).join("/");
		try {
			if (lstatSync(join(workTree, dir)).isDirectory()) return dir;
		} catch {
			// Not there: try the one above.
		}
	}
	return "";
}

function sha256(bytes: Buffer): string {
	return createHash("sha256").update(bytes).digest("hex");
}

/** The hash of a file's content now: null when it does not exist, "" when it cannot be read as a file. */
export function contentHash(workTree: string, path: string, maxBytes: number): string | null {
	const file = join(workTree, path);
	try {
		lstatSync(file);
	} catch {
		return null;
	}
	const bytes = readRegular(file, maxBytes);
	return bytes === undefined ? "" : sha256(bytes);
}

export function readPreimage(projectDir: string, preimage: Preimage): Buffer | undefined {
	if (!preimage.file) return undefined;
	try {
		return readFileSync(join(projectDir, preimage.file));
	} catch {
		return undefined;
	}
}

/** A regular file's bytes (checked after opening, without blocking), or undefined. */
function readRegular(file: string, maxBytes: number): Buffer | undefined {
	try {
		return readCheckedFile(file, { maxBytes });
	} catch {
		return undefined;
	}
}
