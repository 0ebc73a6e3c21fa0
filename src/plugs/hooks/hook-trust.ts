// Project hooks as the user last allowed them: a fingerprint of a project's hook commands per directory in
// `<loom home>/trusted-hooks.json`. A trusted project whose hooks differ from the fingerprint (a hook added or
// changed by a pull) is asked about again before they run.
import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import { readJsonState, writeJsonState } from "../../core/index.js";
import type { SettingsHook } from "./hook-settings.js";

const FILE = "trusted-hooks.json";
const MAX_BYTES = 1024 * 1024;

export function hooksFingerprint(hooks: readonly SettingsHook[]): string {
	const hash = createHash("sha256");
	for (const hook of hooks) hash.update(JSON.stringify([hook.source.file, hook.event, hook.matcher ?? "", hook.command, hook.timeoutS])).update("\n");
	return hash.digest("hex");
}

function load(home: string): Record<string, string> {
	const parsed = readJsonState(join(home, FILE), MAX_BYTES);
	return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
}

/** Whether these are the project hooks the user allowed last in `cwd`. */
export function hooksAllowed(home: string, cwd: string, fingerprint: string): boolean {
	return load(home)[resolve(cwd)] === fingerprint;
}

export function allowHooks(home: string, cwd: string, fingerprint: string): void {
	const entries = load(home);
	entries[resolve(cwd)] = fingerprint;
	writeJsonState(join(home, FILE), entries, { mode: 0o600, indent: "\t" });
}
