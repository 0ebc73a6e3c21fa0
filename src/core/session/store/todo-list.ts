// The session's todo list: the items the model keeps with its todo tool (or an approved plan gives it), each
// pending, in progress or done. The list lives in the session file as todo entries; the latest one on the
// conversation's chain (a SessionEntry[]) is the list, so a resume, a fork or a rewind brings back the list of that point.

export const TODO_STATUSES = ["pending", "in_progress", "done"] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

export interface TodoItem {
	/** What the step is, in a line. */
	text: string;
	status: TodoStatus;
}

/** Items at most: a list is a plan of steps, not a backlog. */
export const MAX_TODO_ITEMS = 50;

/** Why `items` is not a valid list (a message the model can act on), or undefined when it is. */
export function todoListProblem(items: readonly TodoItem[]): string | undefined {
	if (items.length > MAX_TODO_ITEMS) return `A todo list holds at most ${MAX_TODO_ITEMS} items; this one has ${items.length}. Merge small steps.`;
	const blank = items.findIndex((item) => item.text.trim() === "");
	if (blank !== -1) return `Item ${blank + 1} has no text.`;
	const active = items.flatMap((item, index) => (item.status === "in_progress" ? [index + 1] : []));
	if (active.length > 1) {
		return `At most one item may be in_progress; items ${active.join(" and ")} are. Mark the finished one done (or the others pending) and send the whole list again.`;
	}
	return undefined;
}

/** The list as a Markdown checklist: "- [x] done", "- [ ] pending", "- [>] in progress". */
export function todoListText(items: readonly TodoItem[]): string {
	const mark: Record<TodoStatus, string> = { done: "[x]", in_progress: "[>]", pending: "[ ]" };
	return items.map((item) => `- ${mark[item.status]} ${item.text.trim()}${item.status === "in_progress" ? " (in progress)" : ""}`).join("\n");
}

/** The heading the compaction summary puts above the list it keeps. */
export const TODO_HEADING = "Todo list (current; keep it up to date with the todo tool):";

/** The current list: the latest todo entry among `entries` (a conversation's chain); empty without one. */
export function latestTodos(entries: readonly { type: string; items?: unknown }[]): TodoItem[] {
	for (let i = entries.length - 1; i >= 0; i--) {
		const entry = entries[i]!;
		if (entry.type === "todo" && Array.isArray(entry.items)) {
			return entry.items.filter(isTodoItem).map((item) => ({ text: item.text, status: item.status }));
		}
	}
	return [];
}

/** A well-formed item (a hand-edited file may hold others, which are left out). */
export function isTodoItem(value: unknown): value is TodoItem {
	const item = value as Partial<TodoItem> | null;
	return typeof item === "object" && item !== null && typeof item.text === "string" && TODO_STATUSES.includes(item.status as TodoStatus);
}
