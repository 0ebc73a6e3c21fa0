// How a process the model causes is started: a program, its arguments, where and with what environment. The
// sandbox plug turns one into the same process inside the kernel's confinement; whoever spawns asks it first.

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
