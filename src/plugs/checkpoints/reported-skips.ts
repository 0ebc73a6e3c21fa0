// What a project's checkpoints have told the user, kept in the project's checkpoint folder, so each thing is said
// once per project rather than in every session and every print run: the files named as left out (over the size
// limit), and why the work tree is not snapshotted.
import { join } from "node:path";
import { readJsonState, writeJsonState } from "../../core/index.js";
import type { SkippedFile } from "./changed-files.js";

const FILE = "left-out.json";
const SAID_FILE = "said.json";
/** Notices remembered at most, the latest kept. */
const MAX_SAID = 100;
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

/** True the first time `notice` is asked about in this project (it is then remembered as said). */
export function firstTimeSaid(projectDir: string, notice: string): boolean {
	const said = load(projectDir, SAID_FILE);
	if (said.has(notice)) return false;
	save(projectDir, [...said, notice].slice(-MAX_SAID), SAID_FILE);
	return true;
}

function load(projectDir: string, file = FILE): Set<string> {
	const parsed = readJsonState(join(projectDir, file), MAX_BYTES);
	return new Set(Array.isArray(parsed) ? parsed.filter((entry): entry is string => typeof entry === "string") : []);
}

function save(projectDir: string, entries: string[], file = FILE): void {
	try {
		writeJsonState(join(projectDir, file), entries);
	} catch {
		// Not remembered: it is said again next time, which is no harm.
	}
}
