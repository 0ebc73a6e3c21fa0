// A write the sandbox refused, found in a command's output: the kernel answers EROFS ("Read-only file system")
// for a path outside the writable roots or under a protected one, and the program says so with the path. Each
// becomes a plain sentence for the model and a record on the call ("blocked by the sandbox: write to ~/.bashrc").
import { basename, isAbsolute, join, resolve } from "node:path";
import { isWithin } from "./bwrap-args.js";
import { protectedPaths, type SandboxPolicy } from "./sandbox-policy.js";

export interface SandboxBlock {
	/** The path as written for a person (~ for the home folder). */
	path: string;
	absolute: string;
	/** Why: outside the writable roots, a protected name, a read-only rule, a hidden path. */
	why: string;
}

const EROFS = "Read-only file system";
/** The last quoted path (‘x’, 'x', "x") or bare path before the error text, on one line. */
const QUOTED = /(?:'([^'\n]+)'|‘([^’\n]+)’|"([^"\n]+)"|`([^`'\n]+)')/g;
const BARE = /(?:^|[\s:])((?:~|\.{0,2}\/|[\w.-]+\/)[^\s:'"]*|\.[\w.-]+)(?=:\s)/g;

/** Paths the output says could not be written because the file system is read-only, in order, once each. */
export function refusedWrites(output: string, cwd: string, home: string): string[] {
	const found: string[] = [];
	for (const line of output.split("\n")) {
		const at = line.indexOf(EROFS);
		if (at < 0) continue;
		const before = line.slice(0, at);
		const quoted = [...before.matchAll(QUOTED)].map((match) => match[1] ?? match[2] ?? match[3] ?? match[4]);
		const bare = [...before.matchAll(BARE)].map((match) => match[1]);
		const path = quoted.at(-1) ?? bare.at(-1);
		if (!path) continue;
		const absolute = path === "~" || path.startsWith("~/") ? join(home, path.slice(1)) : isAbsolute(path) ? resolve(path) : resolve(cwd, path);
		if (!found.includes(absolute)) found.push(absolute);
	}
	return found;
}

/** The refused writes the sandbox accounts for, with why. */
export function sandboxBlocks(output: string, policy: SandboxPolicy, cwd: string, home: string): SandboxBlock[] {
	if (policy.mode === "off") return [];
	return refusedWrites(output, cwd, home).flatMap((absolute): SandboxBlock[] => {
		const why = blockReason(absolute, policy);
		return why ? [{ absolute, path: shown(absolute, home), why }] : [];
	});
}

function blockReason(path: string, policy: SandboxPolicy): string | undefined {
	if (policy.hiddenPaths.some((hidden) => isWithin(path, hidden))) return "it is hidden from commands";
	const root = policy.writableRoots.find((candidate) => isWithin(path, candidate));
	if (root) {
		const guarded = protectedPaths(policy).find((protectedPath) => isWithin(path, protectedPath));
		if (guarded) return `${basename(guarded)} stays read-only inside the project (what is planted there runs later without asking)`;
		if (policy.readOnlyPaths.some((readOnly) => isWithin(path, readOnly))) return "a deny rule keeps it read-only";
		return undefined;
	}
	if (policy.mode === "read-only") return "the sandbox is read-only: commands may write only in a private /tmp";
	return `commands may write only in ${policy.writableRoots.join(", ")}`;
}

function shown(path: string, home: string): string {
	return isWithin(path, home) && path !== home ? `~/${path.slice(home.length + 1)}` : path === home ? "~" : path;
}

/** What the model reads after the output: each block in plain words, and what would allow it. */
export function blockNote(blocks: readonly SandboxBlock[], mode: string): string {
	const lines = blocks.map((block) => `blocked by the sandbox: write to ${block.path} (${block.why}).`);
	return `${lines.join("\n")}\nThe sandbox (${mode}) refused ${blocks.length === 1 ? "this write" : "these writes"}; retrying will not help. If the change is needed, do it inside the project or ask the user to allow it (/sandbox, or sandbox.writableRoots in settings).`;
}
