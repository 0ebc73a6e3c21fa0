// The one owner of loom's child processes: their groups, the exit hooks, liveness checks, and who answers for an uncaught error.
export { onProcessExit, runExitHooks } from "./exit-hooks.js";
export { isAlive, isGroupAlive } from "./is-alive.js";
export { ProcessGroupSet } from "./process-group-set.js";
export { claimUncaughtErrors, offerUncaughtError, type UncaughtErrorClaimer } from "./uncaught-errors.js";
