// Door of core/session/run.
export { announceExecution } from "./announce-execution.js";
export { RunGates, type RunGate } from "./run-gates.js";
export { runOutcome } from "./run-outcome.js";
export { createSessionAgent } from "./session-agent.js";
export { SessionCompaction } from "./session-compaction.js";
export { SessionRunner } from "./session-runner.js";
