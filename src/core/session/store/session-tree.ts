// The branches of a session's conversation, as /tree and /rewind show them: its prompts as rows of a tree (a row
// is indented only where the conversation branched), and which entry the conversation is at.
import type { AgentMessage } from "../../engine/index.js";
import { textFromContent } from "../../ai/index.js";
import type { MessageEntry, SessionEntry } from "./session-entries.js";
import { subagentLink } from "./usage-totals.js";

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

export interface TreeRow {
	/**
	 * "prompt": a prompt and what followed it, up to the next prompt. "position": where the conversation is, when no
	 * prompt has followed it there but others went on from that point elsewhere (right after a rewind): a branch of
	 * its own, which the next prompt starts.
	 */
	kind: "prompt" | "position";
	/** The prompt's entry; for a position, the entry the conversation is at (null: its start). */
	entryId: string | null;
	/** The prompt's text on one line; empty for a position. */
	text: string;
	/** When the prompt was sent; for a position, when the conversation moved there. */
	timestamp: string;
	/** Tree lines drawn before the text ("├─ ", "│  └─ "); empty on the trunk. */
	prefix: string;
	/**
	 * Where switching to this row goes: where the conversation is, for a row on its path; otherwise the newest entry
	 * at the end of the row's branch. Null: the start of the conversation.
	 */
	leafId: string | null;
	/** Messages in the conversation at leafId. */
	messages: number;
	/** The row is on the path to where the conversation is now. */
	current: boolean;
	/** The conversation is at this row: after this prompt and before the next one, or at this position. */
	here: boolean;
	/** Subagents the prompt's run started (task calls whose results link a child session); absent: none. */
	subagents?: number;
}

export interface SessionTree {
	rows: TreeRow[];
	/** Whether the conversation branched at all (a tree of one branch is a list). */
	branched: boolean;
	/** How many branches the session holds (ends of the tree, the current one included; 0 when empty). */
	branches: number;
	/** The entry the conversation is at (through branch entries; null: its start). */
	at: string | null;
}

/** The prompts (user messages) of a conversation's chain, first to last. */
export function promptPoints(chain: readonly SessionEntry[]): PromptPoint[] {
	return chain.filter(isPrompt).map(point);
}

/** A prompt, or where the conversation is apart from the prompts beside it (see TreeRow.kind). */
type TreeNode = { kind: "prompt"; entry: MessageEntry } | { kind: "position" };

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
	const continued = new Set(entries.map(parentOf));
	const ends = entries.filter((entry) => !continued.has(entry.id)).length;
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
	const children = new Map<string | null, TreeNode[]>();
	const promptAboveOf = (id: string | null): string | null =>
		id === null ? null : byId.get(id) && isPrompt(byId.get(id)!) ? id : (promptAbove.get(id) ?? null);
	const subagents = new Map<string, number>();
	for (const entry of entries) {
		const above = promptAboveOf(parentOf(entry));
		promptAbove.set(entry.id, above);
		if (isPrompt(entry)) children.set(above, [...(children.get(above) ?? []), { kind: "prompt", entry }]);
		if (above !== null && entry.type === "message" && subagentLink(entry.message)) subagents.set(above, (subagents.get(above) ?? 0) + 1);
	}
	const here = seeThrough(byId, leafId);
	const herePrompt = promptAboveOf(here);
	// The conversation is past every prompt on its path, so prompts hanging from its own prompt went on elsewhere.
	const apart = (children.get(herePrompt) ?? []).length > 0;
	if (apart) children.get(herePrompt)!.push({ kind: "position" });
	const currentPath = new Set<string>();
	for (let at = here; at !== null && !currentPath.has(at); ) {
		currentPath.add(at);
		const entry = byId.get(at);
		at = entry ? parentOf(entry) : null;
	}
	const countAt = (id: string | null) => (id === null ? 0 : (messages.get(id) ?? 0));
	const row = (node: TreeNode, prefix: string): TreeRow => {
		if (node.kind === "position") {
			const moved = leafId === null ? undefined : byId.get(leafId);
			return { kind: "position", entryId: here, text: "", timestamp: moved?.timestamp ?? "", prefix, leafId: here, messages: countAt(here), current: true, here: true };
		}
		const { entry } = node;
		const current = currentPath.has(entry.id);
		const leaf = current ? here : (newest.get(entry.id) ?? entry.id);
		const started = subagents.get(entry.id);
		return {
			kind: "prompt",
			entryId: entry.id,
			text: promptText(entry.message),
			timestamp: entry.timestamp,
			prefix,
			leafId: leaf,
			messages: countAt(leaf),
			current,
			here: entry.id === herePrompt && !apart,
			...(started ? { subagents: started } : {}),
		};
	};
	const rows: TreeRow[] = [];
	const stack: { node: TreeNode; prefix: string; indent: string }[] = [];
	const pushChildren = (parent: string | null, indent: string) => {
		const kids = children.get(parent) ?? [];
		const fork = kids.length > 1;
		const items = kids.map((node, index) => {
			const last = index === kids.length - 1;
			return { node, prefix: fork ? `${indent}${last ? "└─ " : "├─ "}` : indent, indent: fork ? `${indent}${last ? "   " : "│  "}` : indent };
		});
		stack.push(...items.reverse());
	};
	pushChildren(null, "");
	while (stack.length > 0) {
		const { node, prefix, indent } = stack.pop()!;
		rows.push(row(node, prefix));
		if (node.kind === "prompt") pushChildren(node.entry.id, indent);
	}
	return { rows, branched: [...children.values()].some((kids) => kids.length > 1), branches: ends + (apart ? 1 : 0), at: here };
}

/** A prompt's text as the user typed it (without images; not what it stood for, see UserMessage.typed). */
export function promptText(message: AgentMessage): string {
	const typed = (message as { typed?: unknown }).typed;
	if (typeof typed === "string") return typed.trim();
	return textFromContent((message as { content?: unknown }).content, { separator: " " }).trim();
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
