// `loom worker --queue redis://… --jobs N`: runs the queue's tasks on this machine until a signal stops it, with
// this command line's model flags (a task's `model` still wins).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CliOptions } from "../args.js";
import type { RunIo } from "../run-io.js";
import { enterPhase } from "../termination.js";
import { childEnv, childFlags } from "./batch-command.js";

export async function runWorkerCommand(options: CliOptions, io: RunIo): Promise<number> {
	const { queue, jobs, lockMs } = options.worker!;
	const controller = new AbortController();
	let code = 0;
	const stopSignals = enterPhase({
		stop(exitCode) {
			code = exitCode;
			controller.abort();
		},
	});
	const workRoot = mkdtempSync(join(tmpdir(), "loom-worker-"));
	try {
		const { runQueueWorker } = await import("./queue.js");
		io.stderr.write(`loom worker: taking tasks from ${queue.replace(/\/\/[^@/]*@/, "//…@")}, ${jobs} at once.\n`);
		await runQueueWorker({ url: queue, jobs, lockMs, signal: controller.signal, run: { flags: childFlags(options), env: childEnv(options, io.env), workRoot } });
		return code;
	} finally {
		stopSignals();
		rmSync(workRoot, { recursive: true, force: true });
	}
}
