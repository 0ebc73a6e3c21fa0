// Watches the handlers the session awaits (tool_call, tool_result, a tool's execute()) for the two ways an extension can break a run
// without a handler throwing: a handler that can never settle (it waits on nothing: the process's event loop is
// empty while it is pending), and a throw outside any handler (a timer or callback of its own that nothing
// catches). Either way each call waiting on the extension gets an error naming it, and the watch reports the
// problem once, for the run to end as an error; never does loom end quietly mid-run or crash on the extension's line.
import { isAbsolute, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { claimUncaughtErrors, errorMessage } from "../../core/index.js";

interface PendingCall {
	extension: string;
	/** What is waited on, as said after "its": `tool_call handler`, `tool "stuck"`. */
	what: string;
	fail(error: Error): void;
}

const NEVER_SETTLES = "never settled: it waits on nothing that can happen.";

export class HandlerWatch {
	private readonly pending = new Set<PendingCall>();
	/** Extensions loaded from a file or folder: a frame of theirs in a stack makes an uncaught error theirs. */
	private readonly paths: string[] = [];
	private readonly stopClaiming: () => void;
	private watchingExit = false;

	/**
	 * `broken`: called with what broke, naming the extension, and whether calls were waiting on it; those calls'
	 * errors follow at once (they reach the loop after `broken` returns).
	 */
	constructor(private readonly broken: (problem: string, waiting: boolean) => void) {
		this.stopClaiming = claimUncaughtErrors((error) => this.claim(error));
	}

	/** An extension by this name was loaded; a path (its file or folder) lets its uncaught errors be told apart. */
	loaded(name: string): void {
		if (isAbsolute(name)) this.paths.push(name);
	}

	/** `work`'s outcome, or the error that ended the wait on it; a call the loop gave up on (`signal`) is not watched further. */
	run<T>(extension: string, what: string, work: () => T | PromiseLike<T>, signal?: AbortSignal): Promise<T> {
		return new Promise<T>((resolve, reject) => {
			const call: PendingCall = { extension, what, fail: reject };
			const done = () => {
				this.pending.delete(call);
				signal?.removeEventListener("abort", done);
				this.watchExit();
			};
			this.pending.add(call);
			signal?.addEventListener("abort", done, { once: true });
			this.watchExit();
			Promise.resolve()
				.then(work)
				.then(resolve, reject)
				.finally(done);
		});
	}

	dispose(): void {
		this.stopClaiming();
		this.pending.clear();
		this.watchExit();
	}

	/** The event loop ran dry while handlers were pending: nothing can settle them any more. */
	private readonly drained = (): void => {
		const stuck = [...this.pending];
		if (stuck.length === 0) return;
		this.broken(`Extension ${stuck[0]!.extension}: its ${stuck[0]!.what} ${NEVER_SETTLES}`, true);
		for (const call of stuck) call.fail(new Error(`its ${call.what} ${NEVER_SETTLES}`));
	};

	/** Listens for the drained event loop only while a handler is pending, so an idle session holds no listener. */
	private watchExit(): void {
		const want = this.pending.size > 0;
		if (want === this.watchingExit) return;
		this.watchingExit = want;
		if (want) process.on("beforeExit", this.drained);
		else process.off("beforeExit", this.drained);
	}

	private claim(error: unknown): boolean {
		const owner = this.ownerOf(error);
		if (owner === undefined) return false;
		const what = `threw outside its handlers (in a timer or callback): ${errorMessage(error)}`;
		const waiting = [...this.pending].filter((call) => call.extension === owner);
		this.broken(`Extension ${owner} ${what}`, waiting.length > 0);
		for (const call of waiting) call.fail(new Error(`it ${what}`));
		return true;
	}

	/** The extension whose file (or folder) is in the error's stack; a value without a stack: the one extension waited on. */
	private ownerOf(error: unknown): string | undefined {
		const stack = (error as { stack?: unknown } | null)?.stack;
		if (typeof stack === "string") {
			return this.paths.find((path) => [path, pathToFileURL(path).href].some((spelling) => stack.includes(`${spelling}:`) || stack.includes(`${spelling}${sep}`)));
		}
		const waitedOn = new Set([...this.pending].map((call) => call.extension));
		return waitedOn.size === 1 ? [...waitedOn][0] : undefined;
	}
}
