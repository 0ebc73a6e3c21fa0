// How loom's process ends, the same in every mode (print, JSON, RPC, the screen).

/** 128 + the signal's number, as a shell reports it; 141 (SIGPIPE) for a program whose reader closed the pipe. */
export const EXIT = { ok: 0, failure: 1, usage: 2, hangup: 129, interrupted: 130, brokenPipe: 141, terminated: 143 } as const;
