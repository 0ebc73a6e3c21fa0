// The built-in guards, by name: always on, whatever the mode, unless settings turn one off by name.
import { sep } from "node:path";
import type { CallFacts, PolicyContext } from "./call-facts.js";
import type { Subject } from "./rules.js";
import { downloadToShell, forkBomb, makeFilesystem, rawDiskWrite, recursiveChmodRoot, recursiveDelete, type ShellGuard } from "./shell-guards.js";

export interface GuardContext extends PolicyContext {
	/** An allow rule covers this part of the call (what lets a change outside the working tree through). */
	allows(subject: Subject): boolean;
}

/** Why the call is blocked and what to do instead, or undefined. */
type Guard = (call: CallFacts, ctx: GuardContext) => string | undefined;

const onShell =
	(guard: ShellGuard): Guard =>
	(call, ctx) =>
		call.shell ? guard(call.shell, ctx) : undefined;

function inside(path: string, folder: string): boolean {
	return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

const outsideWorkingTree: Guard = (call, ctx) => {
	for (const file of call.changes) {
		if (inside(file.real, ctx.realWorkTree) || ctx.allows({ kind: "file", tool: call.tool, file })) continue;
		const via = file.real !== file.absolute ? ` (it leads to ${file.real})` : "";
		return `${file.given}${via} is outside the working tree ${ctx.workTree}. Change files inside the project; if this one really must change, ask the user to allow it with a rule such as ${call.tool}(${file.real}).`;
	}
	return undefined;
};

const GUARDS = {
	"recursive-delete": onShell(recursiveDelete),
	mkfs: onShell(makeFilesystem),
	"raw-disk-write": onShell(rawDiskWrite),
	"fork-bomb": onShell(forkBomb),
	"chmod-root": onShell(recursiveChmodRoot),
	"download-to-shell": onShell(downloadToShell),
	"outside-working-tree": outsideWorkingTree,
} satisfies Record<string, Guard>;

export type GuardName = keyof typeof GUARDS;
export const GUARD_NAMES = Object.keys(GUARDS) as GuardName[];

export function isGuardName(name: string): name is GuardName {
	return Object.hasOwn(GUARDS, name);
}

/** The first enabled guard that blocks the call, and why. */
export function guardFinding(call: CallFacts, ctx: GuardContext, disabled: ReadonlySet<GuardName>): { guard: GuardName; reason: string } | undefined {
	for (const guard of GUARD_NAMES) {
		if (disabled.has(guard)) continue;
		const reason = GUARDS[guard](call, ctx);
		if (reason) return { guard, reason };
	}
	return undefined;
}
