// How a process the model causes is started: a program, its arguments, where and with what environment, and where
// a program named without a path is found. The sandbox plug turns a spec into the same process inside the kernel's
// confinement; whoever spawns asks it first.
import { accessSync, constants } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

/** One process to start. */
export interface SpawnSpec {
	command: string;
	args: readonly string[];
	cwd: string;
	/** The whole environment (undefined: the parent's). */
	env?: NodeJS.ProcessEnv;
}

/** Returns the spec to spawn instead: the same process confined, or the spec unchanged (sandbox off or unavailable). */
export type ConfineSpawn = (spec: SpawnSpec) => SpawnSpec;

/** Whether `path` is a file this process may run. */
export function isExecutable(path: string): boolean {
	try {
		accessSync(path, constants.X_OK);
		return true;
	} catch {
		return false;
	}
}

/**
 * Where `name` is found on `pathVariable` (a PATH value): the first runnable match in an absolute entry. Empty and
 * relative entries (the current folder, `bin`) are skipped, unlike a shell: a program loom starts itself must not be
 * one the repository it stands in brings.
 */
export function findOnPath(name: string, pathVariable: string): string | undefined {
	for (const folder of pathVariable.split(delimiter)) {
		if (!isAbsolute(folder)) continue;
		const path = join(folder, name);
		if (isExecutable(path)) return path;
	}
	return undefined;
}
