// Which files a project's checkpoints have named as left out (over the size limit), kept in the project's
// checkpoint folder, so each is named once per project rather than in every session and every print run.
import { join } from "node:path";
import { readJsonState, writeJsonState } from "../../core/index.js";
import type { SkippedFile } from "./changed-files.js";

const FILE = "left-out.json";
const MAX_BYTES = 1024 * 1024;
/** Paths remembered at most, the latest kept. */
const MAX_PATHS = 5000;

/** The files of `skipped` not named before in this project; remembers them as named. */
export function unreportedSkips(projectDir: string, skipped: readonly SkippedFile[]): SkippedFile[] {
	if (skipped.length === 0) return [];
	const reported = load(projectDir);
	const fresh = skipped.filter((file) => !reported.has(file.path));
	if (fresh.length > 0) save(projectDir, [...reported, ...fresh.map((file) => file.path)].slice(-MAX_PATHS));
	return fresh;
}

function load(projectDir: string): Set<string> {
	const parsed = readJsonState(join(projectDir, FILE), MAX_BYTES);
	return new Set(Array.isArray(parsed) ? parsed.filter((path): path is string => typeof path === "string") : []);
}

function save(projectDir: string, paths: string[]): void {
	try {
		writeJsonState(join(projectDir, FILE), paths);
	} catch {
		// Not remembered: the files are named again next time, which is no harm.
	}
}
