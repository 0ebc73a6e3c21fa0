// The branches of a session's conversation, as /tree and /rewind show them: its prompts as rows of a tree (a row
// is indented only where the conversation branched), and which entry the conversation is at.
import type { AgentMessage } from "../agent-types.js";
import type { MessageEntry, SessionEntry } from "./session-entries.js";

/** A prompt of the conversation, as pickers list it. */
export interface PromptPoint {
	/** The prompt's session entry. */
	entryId: string;
	/** The entry before it (null: it was the first), where a rewind to before this prompt goes. */
	parentId: string | null;
	/** The prompt's text on one line. */
	text: string;
	timestamp: string;
}

export interface TreeRow extends PromptPoint {
	/** Tree lines drawn before the text ("├─ ", "│  └─ "); empty on the trunk. */
	prefix: string;
	/** The newest entry at the end of this row's branch: where switching to this row goes. */
	leafId: string;
	/** Messages in the conversation at that end. */
	messages: number;
	/** The row is on the path to where the conversation is now. */
	current: boolean;
	/** The conversation is at this prompt or after it, before the next prompt. */
	here: boolean;
}

export interface SessionTree {
	rows: TreeRow[];
	/** Whether the conversation branched at all (a tree of one branch is a list). */
	branched: boolean;
	/** The entry the conversation is at (through branch entries; null: its start). */
	at: string | null;
}

/** The prompts (user messages) of a conversation's chain, first to last. */
export function promptPoints(chain: readonly SessionEntry[]): PromptPoint[] {
	return chain.filter(isPrompt).map(point);
}

/**
 * The tree of every prompt in the file. Branch entries are see-through: an entry written after one counts as a
 * child of the entry the branch points to. `leafId` is where the conversation is (the store's lastEntryId).
 */
export function sessionTree(all: readonly SessionEntry[], leafId: string | null): SessionTree {
	const byId = new Map(all.map((entry) => [entry.id, entry]));
	/** The entry an entry continues from, through branch entries; null at the root. */
	const parentOf = (entry: SessionEntry): string | null => seeThrough(byId, entry.parentId);
	const entries = all.filter((entry) => entry.type !== "branch");
	// Parents come before their children in the file, so one pass each way settles counts and newest ends.
	const messages = new Map<string, number>();
	for (const entry of entries) {
		const parent = parentOf(entry);
		messages.set(entry.id, (parent === null ? 0 : (messages.get(parent) ?? 0)) + (entry.type === "message" ? 1 : 0));
	}
	const order = new Map(all.map((entry, index) => [entry.id, index]));
	const newest = new Map<string, string>();
	for (const entry of [...entries].reverse()) {
		const mine = newest.get(entry.id) ?? entry.id;
		newest.set(entry.id, mine);
		const parent = parentOf(entry);
		const theirs = parent === null ? undefined : newest.get(parent);
		if (parent !== null && (theirs === undefined || order.get(mine)! > order.get(theirs)!)) newest.set(parent, mine);
	}
	// Prompts hang from the nearest prompt above them (null: the start of the conversation).
	const promptAbove = new Map<string, string | null>();
	const promptChildren = new Map<string | null, MessageEntry[]>();
	for (const entry of entries) {
		const parent = parentOf(entry);
		const above = parent === null ? null : byId.get(parent) && isPrompt(byId.get(parent)!) ? parent : (promptAbove.get(parent) ?? null);
		promptAbove.set(entry.id, above);
		if (isPrompt(entry)) promptChildren.set(above, [...(promptChildren.get(above) ?? []), entry]);
	}
	const here = seeThrough(byId, leafId);
	const herePrompt = here === null ? null : byId.get(here) && isPrompt(byId.get(here)!) ? here : (promptAbove.get(here) ?? null);
	const currentPath = new Set<string>();
	for (let at = here; at !== null && !currentPath.has(at); ) {
		currentPath.add(at);
		const entry = byId.get(at);
		at = entry ? parentOf(entry) : null;
	}
	const rows: TreeRow[] = [];
	const stack: { entry: MessageEntry; prefix: string; indent: string }[] = [];
	const pushChildren = (parent: string | null, indent: string) => {
		const kids = promptChildren.get(parent) ?? [];
		const fork = kids.length > 1;
		const items = kids.map((entry, index) => {
			const last = index === kids.length - 1;
			return { entry, prefix: fork ? `${indent}${last ? "└─ " : "├─ "}` : indent, indent: fork ? `${indent}${last ? "   " : "│  "}` : indent };
		});
		stack.push(...items.reverse());
	};
	pushChildren(null, "");
	while (stack.length > 0) {
		const { entry, prefix, indent } = stack.pop()!;
		const leaf = newest.get(entry.id) ?? entry.id;
		rows.push({
			...point(entry),
			prefix,
			leafId: leaf,
			messages: messages.get(leaf) ?? 0,
			current: currentPath.has(entry.id),
			here: entry.id === herePrompt,
		});
		pushChildren(entry.id, indent);
	}
	return { rows, branched: [...promptChildren.values()].some((kids) => kids.length > 1), at: here };
}

/** A prompt's text as the user typed it (without images; not what it stood for, see UserMessage.typed). */
export function promptText(message: AgentMessage): string {
	const typed = (message as { typed?: unknown }).typed;
	if (typeof typed === "string") return typed.trim();
	const content = (message as { content?: unknown }).content;
	const text =
		typeof content === "string"
			? content
			: Array.isArray(content)
				? content.map((part) => (part && typeof part === "object" && part.type === "text" ? String(part.text ?? "") : "")).join(" ")
				: "";
	return text.trim();
}

function isPrompt(entry: SessionEntry): entry is MessageEntry {
	return entry.type === "message" && entry.message.role === "user";
}

function point(entry: MessageEntry): PromptPoint {
	return { entryId: entry.id, parentId: entry.parentId, text: promptText(entry.message), timestamp: entry.timestamp };
}

/** `id`, or through branch entries to the entry they point to. */
function seeThrough(byId: ReadonlyMap<string, SessionEntry>, id: string | null): string | null {
	const seen = new Set<string>();
	for (let at = id; at !== null && !seen.has(at); ) {
		seen.add(at);
		const entry = byId.get(at);
		if (!entry || entry.type !== "branch") return at;
		at = entry.parentId;
	}
	return null;
}
