import { Box, Text } from "ink";
import type { TodoItem } from "../../core/index.js";
import { stripToOneLine } from "../../core/index.js";

export interface TodoListProps {
	items: readonly TodoItem[];
	collapsed: boolean;
	width: number;
}

/** Items listed at most; the rest are counted. */
export const MAX_TODOS_SHOWN = 8;

/** Rows the list takes (0 when there is nothing to show). */
export function todoListHeight(items: readonly TodoItem[], collapsed: boolean): number {
	if (items.length === 0) return 0;
	if (collapsed) return 1;
	return 1 + Math.min(items.length, MAX_TODOS_SHOWN) + (items.length > MAX_TODOS_SHOWN ? 1 : 0);
}

/**
 * The model's todo list above the editor while a run goes on: the item in progress highlighted, done ones checked.
 * Folded (Ctrl+X) to one line with the count and the current item. The window keeps the current item in view.
 */
export function TodoList({ items, collapsed, width }: TodoListProps) {
	if (items.length === 0) return null;
	const done = items.filter((item) => item.status === "done").length;
	const current = items.findIndex((item) => item.status === "in_progress");
	const heading = `Todo ${done}/${items.length} done`;
	if (collapsed) {
		const now = current === -1 ? "" : ` · now: ${stripToOneLine(items[current]!.text)}`;
		return (
			<Text wrap="truncate-end">
				<Text color="cyan">{heading}</Text>
				<Text dimColor>{now} (ctrl+x shows the list)</Text>
			</Text>
		);
	}
	const start = Math.max(0, Math.min(current - Math.floor(MAX_TODOS_SHOWN / 2), items.length - MAX_TODOS_SHOWN));
	const shown = items.slice(start, start + MAX_TODOS_SHOWN);
	return (
		<Box flexDirection="column" width={width}>
			<Text wrap="truncate-end">
				<Text color="cyan">{heading}</Text>
				<Text dimColor> (ctrl+x folds it)</Text>
			</Text>
			{shown.map((item, index) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: items are positions in the list
				<Text key={start + index} wrap="truncate-end">
					<TodoRow item={item} />
				</Text>
			))}
			{items.length > shown.length ? <Text dimColor>{`  … ${items.length - shown.length} more`}</Text> : null}
		</Box>
	);
}

function TodoRow({ item }: { item: TodoItem }) {
	const text = stripToOneLine(item.text);
	if (item.status === "done") return <Text dimColor>{`  ✓ ${text}`}</Text>;
	if (item.status === "in_progress") return <Text color="yellow" bold>{`  ▶ ${text}`}</Text>;
	return <Text>{`  ○ ${text}`}</Text>;
}
