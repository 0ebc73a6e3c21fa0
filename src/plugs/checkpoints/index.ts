// Door of plugs/checkpoints.
export { installCheckpoints } from "./install-checkpoints.js";
export { pruneCheckpoints } from "./prune.js";
