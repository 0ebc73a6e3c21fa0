// The one owner of loom's child processes: their groups, the exit hooks, liveness checks, and who answers for an uncaught error.
export { ProcessGroupSet, isAlive, isGroupAlive } from "./process-group-set.js";
export { claimUncaughtErrors, offerUncaughtError, onProcessExit, runExitHooks, type UncaughtErrorClaimer } from "./process-exit.js";
export { findOnPath, isExecutable, type ConfineSpawn, type SpawnSpec } from "./spawn-spec.js";
