// Door of the file checkpoints: the working tree recorded before each prompt, restored on /rewind, pruned offline.
export { installCheckpoints } from "./install-checkpoints.js";
export { pruneCheckpoints } from "./prune.js";
