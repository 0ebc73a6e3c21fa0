// The one owner of loom's child processes: their groups, the exit hooks, liveness checks, and who answers for an uncaught error.
export { ProcessGroupSet, isAlive, isGroupAlive, onProcessExit, runExitHooks } from "./process-group-set.js";
export { claimUncaughtErrors, offerUncaughtError, type UncaughtErrorClaimer } from "./uncaught-errors.js";
