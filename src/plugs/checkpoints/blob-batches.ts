// The recorded contents of the files a restore writes back, read in batches: one git process a batch, taken in
// the order the restore asks for them. A restore of thousands of files runs a few git processes, and memory holds
// one batch at a time (at most BATCH_BYTES, or one bigger file alone).
import type { ShadowRepo } from "./shadow-repo.js";

/** Content read by one git process at most (a single bigger blob is read alone). */
export const BATCH_BYTES = 16 * 1024 * 1024;

/**
 * A reader of the blobs `ids`, best asked in that order: each read of a blob not at hand reads it and those after
 * it, up to `batchBytes`. Undefined for a blob the repository does not have.
 */
export function blobBatches(
	repo: Pick<ShadowRepo, "blobSizes" | "readBlobs">,
	ids: readonly string[],
	batchBytes = BATCH_BYTES,
): (id: string) => Promise<Buffer | undefined> {
	const order = [...new Set(ids)];
	let sizes: Promise<Map<string, number>> | undefined;
	let batch = new Map<string, Buffer>();
	return async (id) => {
		sizes ??= repo.blobSizes(order);
		const known = await sizes;
		if (!known.has(id)) return undefined;
		if (!batch.has(id)) {
			const next = [id];
			let total = known.get(id)!;
			for (const later of order.slice(order.indexOf(id) + 1)) {
				const size = known.get(later);
				if (size === undefined) continue;
				if (total + size > batchBytes) break;
				next.push(later);
				total += size;
			}
			batch = await repo.readBlobs(next, total);
		}
		return batch.get(id);
	};
}
