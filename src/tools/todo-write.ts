// The todo tool: the model writes its whole todo list at every change (items pending, in_progress or done, at
// most one in progress). The session keeps the list (a session entry: it survives compaction, resume and fork)
// and every front end shows it; the tool only checks the list and hands it on.
import { type Static, Type } from "@sinclair/typebox";
import type { TodoItem, ToolDefinition, ToolPresentation } from "../core/index.js";
import { todoListProblem, todoListText } from "../core/index.js";

/** Where the tool puts the list: the session's (setTodos), which rejects an invalid list with a readable Error. */
export interface TodoListPort {
	set(items: readonly TodoItem[]): Promise<void>;
}

export const todoWriteSchema = Type.Object({
	todos: Type.Array(
		Type.Object({
			text: Type.String({ description: "The step, in a short line" }),
			status: Type.Union([Type.Literal("pending"), Type.Literal("in_progress"), Type.Literal("done")]),
		}),
		{ description: "The whole list, in order: every item, each time" },
	),
});

export type TodoWriteInput = Static<typeof todoWriteSchema>;

export interface TodoWriteDetails {
	todos: TodoItem[];
}

const description = `Write your todo list for the current task: the whole list each time, in order. Each item is pending, in_progress or done; at most one is in_progress (the one you are working on). The user sees the list while you work.`;

const presentation: ToolPresentation = {
	promptGuide: "keep your todo list for a task of several steps (the whole list each time)",
	promptRules: [
		"For a task of more than a few steps, write a todo list with todo_write first; mark an item in_progress when you start it and done as soon as it is finished (one in progress at a time), and keep the list current until the task is done.",
	],
	// It changes no file: plan mode and read-only mode let it run, checkpoints skip it.
	readOnly: true,
	summarizeArgs(args) {
		const todos = (args as { todos?: unknown } | undefined)?.todos;
		if (!Array.isArray(todos)) return "";
		const done = todos.filter((item) => (item as { status?: unknown })?.status === "done").length;
		return `${todos.length} item${todos.length === 1 ? "" : "s"}, ${done} done`;
	},
	resultLines(row) {
		if (row.status !== "done") return undefined;
		const current = (row.details as TodoWriteDetails | undefined)?.todos?.find((item) => item.status === "in_progress");
		return current ? [{ text: `now: ${current.text}`, style: "dim" }] : [];
	},
};

/** `port`: the session's list; without one (a bare tool) the list is only checked and echoed. */
export function createTodoWriteTool(_cwd: string, port?: TodoListPort): ToolDefinition<typeof todoWriteSchema, TodoWriteDetails> {
	return {
		name: "todo_write",
		label: "Todo",
		description,
		parameters: todoWriteSchema,
		...presentation,
		async execute(_toolCallId, params) {
			const todos = params.todos.map((item) => ({ text: item.text.trim(), status: item.status }));
			const problem = todoListProblem(todos);
			if (problem) throw new Error(`The todo list was not changed: ${problem}`);
			await port?.set(todos);
			const text = todos.length === 0 ? "The todo list is now empty." : `Todo list updated:\n${todoListText(todos)}`;
			return { content: [{ type: "text", text }], details: { todos } };
		},
	};
}
