// Serialises read-modify-write work per file so parallel tool calls on one file cannot lose each other's changes.
import fs from "node:fs";
import path from "node:path";

const tails = new Map<string, Promise<void>>();

/**
 * The queue key: the real path, so symlink aliases share a queue. For a path that does not exist yet,
 * the real path of the nearest existing ancestor plus the rest, so the key stays the same once the file exists.
 * Synchronous on purpose: an async lookup could finish out of order and break call order.
 */
export function fileQueueKey(filePath: string): string {
	const absolute = path.resolve(filePath);
	try {
		return fs.realpathSync(absolute);
	} catch {
		const parent = path.dirname(absolute);
		if (parent === absolute) return absolute;
		return path.join(fileQueueKey(parent), path.basename(absolute));
	}
}

/** Runs fn after every earlier call for the same file has settled; different files run in parallel. */
export function withFileMutationQueue<T>(filePath: string, fn: () => Promise<T> | T): Promise<T> {
	const key = fileQueueKey(filePath);
	const previous = tails.get(key) ?? Promise.resolve();
	const run = previous.then(() => fn());
	const tail = run.then(
		() => undefined,
		() => undefined,
	);
	tails.set(key, tail);
	void tail.then(() => {
		if (tails.get(key) === tail) tails.delete(key);
	});
	return run;
}
