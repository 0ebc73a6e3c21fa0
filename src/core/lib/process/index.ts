// The one owner of loom's child processes: their groups, the exit hooks, and liveness checks.
export { ProcessGroupSet, isAlive, isGroupAlive, onProcessExit, runExitHooks } from "./process-group-set.js";
