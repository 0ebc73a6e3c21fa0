// Door of the file checkpoints: the working tree recorded before each prompt, restored on /rewind, pruned offline.
export { installCheckpoints, linkCheckpointBefore } from "./install-checkpoints.js";
export type { Checkpointer } from "./checkpointer.js";
export { pruneCheckpoints } from "./prune.js";
