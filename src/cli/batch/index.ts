// Door of the batch commands: `loom batch` (many tasks, here or through a queue) and `loom worker` (a queue's tasks).
export { runBatchCommand } from "./batch-command.js";
export { runWorkerCommand } from "./worker-command.js";
