// The one owner of loom's child processes: their groups, the exit hooks, and liveness checks.
export { onProcessExit, runExitHooks } from "./exit-hooks.js";
export { isAlive, isGroupAlive } from "./is-alive.js";
export { ProcessGroupSet } from "./process-group-set.js";
