// The conversation a session file holds: the chain of entries from the last one back along parentId, not the
// lines in file order. A rewind or a switch of branch appends a branch entry pointing back to where the
// conversation continues, so the last entry's chain is always the current conversation. Two writers
// interleaving (user A, user B, answer A, answer B) also leave two branches; the chain is the branch of the last entry.
import type { SessionEntry } from "./session-entries.js";

export interface SessionChain {
	/** The chain's entries, first to last. */
	entries: SessionEntry[];
	/** What to tell the user when entries were left out or a gap was bridged. */
	notes: string[];
}

/**
 * Follows parentId back from the last entry (or from `leafId`). A parent that is not in the file (its line was
 * damaged) is bridged to the entry just before in file order, so one bad line never cuts off what came before it.
 */
export function sessionChain(entries: readonly SessionEntry[], leafId?: string): SessionChain {
	const indexById = new Map<string, number>();
	entries.forEach((entry, index) => indexById.set(entry.id, index));
	const start = leafId === undefined ? entries.length - 1 : (indexById.get(leafId) ?? -1);
	const chain: SessionEntry[] = [];
	const visited = new Set<number>();
	let gaps = 0;
	for (let index = start; index >= 0 && !visited.has(index); ) {
		visited.add(index);
		const entry = entries[index]!;
		chain.push(entry);
		if (entry.parentId === null) break;
		const parent = indexById.get(entry.parentId);
		// A parent after its child would be a cycle or a hand edit: treated like a missing one.
		if (parent !== undefined && parent < index) index = parent;
		else {
			if (index > 0) gaps++;
			index--;
		}
	}
	chain.reverse();
	const notes: string[] = [];
	const considered = entries.slice(0, start + 1);
	const left = considered.length - chain.length - abandonedBranches(considered, new Set(chain.map((entry) => entry.id)));
	if (left > 0) {
		notes.push(
			`${left} ${left === 1 ? "entry is" : "entries are"} not on the conversation's chain (a second loom writing at the same time, or a damaged line) and ${left === 1 ? "was" : "were"} left out.`,
		);
	}
	if (gaps > 0) notes.push(`the conversation was joined across ${gaps === 1 ? "a missing entry" : `${gaps} missing entries`}.`);
	return { entries: chain, notes };
}

/**
 * How many entries off the chain were left there by branch entries (a rewind, a switch of branch): the branch
 * each one left, from its `fromId` back to where it joins the chain, and the branch entries themselves.
 */
function abandonedBranches(entries: readonly SessionEntry[], onChain: ReadonlySet<string>): number {
	const byId = new Map(entries.map((entry) => [entry.id, entry]));
	const left = new Set<string>();
	for (const entry of entries) {
		if (entry.type !== "branch") continue;
		if (!onChain.has(entry.id)) left.add(entry.id);
		for (let id = entry.fromId; id !== null && !onChain.has(id) && !left.has(id); ) {
			const from = byId.get(id);
			if (!from) break;
			left.add(id);
			id = from.parentId;
		}
	}
	return left.size;
}
