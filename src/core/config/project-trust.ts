// Which project directories the user trusts to run their own code in loom: a project's extensions
// (.loom/extensions/) and MCP servers (.mcp.json) start only in a trusted directory. The answer is remembered
// per directory in `<loom home>/trust.json`; a trusted directory's subdirectories are trusted too.
import { dirname, join, resolve } from "node:path";
import { readJsonState, writeJsonState } from "../lib/index.js";

/** `{ "<absolute directory>": true | false }`: false remembers a "no", so the user is not asked again. */
type TrustFile = Record<string, boolean>;

const FILE = "trust.json";
const MAX_BYTES = 1024 * 1024;

function trustFile(home: string): string {
	return join(home, FILE);
}

/** The decisions remembered; none when the file is missing, unreadable, too large, not a regular file or not JSON. */
function load(home: string): TrustFile {
	const parsed = readJsonState(trustFile(home), MAX_BYTES);
	return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as TrustFile) : {};
}

/** The decision for `cwd`: the nearest of it and its parents that has one; undefined when never asked. */
export function projectTrust(home: string, cwd: string): boolean | undefined {
	const entries = load(home);
	for (let dir = resolve(cwd); ; dir = dirname(dir)) {
		const value = entries[dir];
		if (typeof value === "boolean") return value;
		if (dirname(dir) === dir) return undefined;
	}
}

export function isProjectTrusted(home: string, cwd: string): boolean {
	return projectTrust(home, cwd) === true;
}

/** Remembers the user's answer for `cwd` (written atomically). */
export function setProjectTrust(home: string, cwd: string, trusted: boolean): void {
	const entries = load(home);
	entries[resolve(cwd)] = trusted;
	writeJsonState(trustFile(home), entries, { mode: 0o600, indent: "\t" });
}
