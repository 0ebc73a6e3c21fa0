// Door of a session's runs: a prompt to its outcome, the queue, retries, compaction inside a run, the Agent driven.
export { announceExecution } from "./announce-execution.js";
export { RunGates, type RunGate } from "./session-runner.js";
export { runOutcome } from "./run-state.js";
export { createSessionAgent } from "./session-agent.js";
export { SessionCompaction } from "./session-compaction.js";
export { SessionRunner } from "./session-runner.js";
export { MAX_STOP_CONTINUATIONS, RunHooks, type PromptLink, type PromptVerdict, type StopLink, type StopQuestion } from "./run-hooks.js";
