// task: the model hands a piece of work to a subagent, a child session of its own (its own context, tools and
// model) that runs to its end; the child's final answer is the call's result. What starts and runs the child is the
// port the session's assembly gives (src/sdk/subagents.ts); this file is the tool the model sees and its rows.
//
// executionMode "parallel": several task calls of one batch run at once (an explorer each, or writers in worktrees
// of their own). A batch holding a sequential tool (bash, ask_user) still runs one call at a time, as every batch
// does (seed 001), so a task beside a bash call waits for its turn.
import { type Static, Type } from "@sinclair/typebox";
import type { StyledLine, SubagentLink, ToolDefinition, ToolRowState } from "../core/index.js";
import { oneLine, rawString } from "../core/index.js";

export const taskSchema = Type.Object({
	description: Type.Optional(Type.String({ description: "A short title of the task (3 to 6 words), shown to the user" })),
	prompt: Type.String({ description: "The whole task for the subagent: it sees nothing of this conversation, so say what to do, where, and what to report back" }),
	agent: Type.Optional(Type.String({ description: "The name of one of the agents listed, or none for a general-purpose agent" })),
	isolation: Type.Optional(
		Type.Literal("worktree", { description: '"worktree": the agent works in a git worktree of its own (for changes made in parallel); its branch comes back to merge' }),
	),
});

export type TaskToolInput = Static<typeof taskSchema>;

/** One of the child's tool calls as its parent's row lists it. */
export interface SubagentCallRow {
	name: string;
	summary: string;
	status: "running" | "done" | "error";
}

/** What a task call's result (and its live updates) carries. */
export interface TaskDetails {
	/** The child's tool calls so far, oldest first (the latest ones only, see MAX_ROWS). */
	calls: SubagentCallRow[];
	/** Set at the end: the child session and what it spent (counted in the parent's totals). */
	subagent?: SubagentLink;
}

/** An agent the model may name. */
export interface AgentListing {
	name: string;
	description: string;
}

/** What runs a child: the session's (src/sdk/subagents.ts). */
export interface SubagentPort {
	/** Runs the child to its end; rejects (the call fails) when it cannot start or when it failed. */
	run(toolCallId: string, input: TaskToolInput, signal: AbortSignal | undefined, progress: (calls: SubagentCallRow[]) => void): Promise<{ answer: string; link: SubagentLink }>;
}

/** The child's calls a row keeps: the latest ones. */
export const MAX_ROWS = 8;

const STATUS_MARK: Record<SubagentCallRow["status"], { mark: string; style: StyledLine["style"] }> = {
	running: { mark: "…", style: "dim" },
	done: { mark: "✓", style: "ok" },
	error: { mark: "✗", style: "error" },
};

function description(agents: readonly AgentListing[]): string {
	const list = agents.length === 0 ? "" : `\n\nAgents you may name (agent):\n${agents.map((agent) => `- ${agent.name}: ${oneLine(agent.description, 300)}`).join("\n")}`;
	return `Start a subagent: a fresh session with its own context that carries out one task with its own tools and returns its final answer as this result. Use it for work that would fill your context (exploring a large codebase, a search over many files) or for independent parts of a task; several task calls in one message run at the same time. The subagent sees nothing of this conversation: the prompt must hold everything it needs.${list}`;
}

function callLines(details: unknown, max: number): StyledLine[] {
	const calls = (details as Partial<TaskDetails> | undefined)?.calls;
	if (!Array.isArray(calls)) return [];
	return calls.slice(-max).map((call) => {
		const { mark, style } = STATUS_MARK[call?.status] ?? STATUS_MARK.running;
		return { text: `${mark} ${call?.name ?? "tool"} ${call?.summary ?? ""}`.trimEnd(), style };
	});
}

/** The finished row's one line: what the child did and spent, and the branch a worktree child left. */
function doneLines(row: ToolRowState): StyledLine[] | undefined {
	const details = row.details as Partial<TaskDetails> | undefined;
	const link = details?.subagent;
	if (!link || typeof link !== "object") return undefined;
	const calls = Array.isArray(details.calls) ? details.calls.length : 0;
	const tokens = (link.usage?.input ?? 0) + (link.usage?.cacheRead ?? 0) + (link.usage?.output ?? 0);
	const summary = `${link.agent}: ${calls} tool call${calls === 1 ? "" : "s"}, ${tokens} tokens`;
	const lines: StyledLine[] = [{ text: summary, style: "dim" }];
	if (link.worktree) lines.push({ text: `branch ${link.worktree.branch}: ${oneLine(link.worktree.diffStat || "no changes")}`, style: "dim" });
	return lines;
}

/** `agents`: the definitions the model may name, listed in the description. */
export function createTaskTool(port: SubagentPort, agents: readonly AgentListing[]): ToolDefinition<typeof taskSchema, TaskDetails> {
	return {
		name: "task",
		label: "Task",
		description: description(agents),
		parameters: taskSchema,
		executionMode: "parallel",
		promptGuide: "hand a self-contained task to a subagent with its own context (several at once run in parallel)",
		// The call itself changes nothing: the child's own calls go through the child's approval policy and sandbox.
		readOnly: true,
		summarizeArgs(args) {
			const agent = rawString(args, "agent") ?? "general";
			const title = rawString(args, "description") ?? rawString(args, "prompt") ?? "";
			return `${agent}: ${oneLine(title, 80)}`;
		},
		updateLines: (row, max) => callLines(row.details, max),
		resultLines: (row) => (row.status === "done" ? doneLines(row) : undefined),
		async execute(toolCallId, params, signal, onUpdate) {
			if (params.prompt.trim() === "") throw new Error("prompt must say what the subagent is to do.");
			const calls: SubagentCallRow[] = [];
			const { answer, link } = await port.run(toolCallId, params, signal, (latest) => {
				calls.splice(0, calls.length, ...latest);
				const current = latest.at(-1);
				onUpdate?.({ content: [{ type: "text", text: current ? `${current.name} ${current.summary}` : "" }], details: { calls: latest.slice(-MAX_ROWS) } });
			});
			const said = answer.trim() === "" ? "(the subagent ended without an answer)" : answer;
			const branch = link.worktree && `\n\n[The subagent worked in its own worktree; its changes are committed on the branch ${link.worktree.branch} (${oneLine(link.worktree.diffStat || "no changes")}), not in this tree. The user merges it with /merge ${link.worktree.branch} or discards it with /discard ${link.worktree.branch}.]`;
			const text = branch ? `${said}${branch}` : said;
			return { content: [{ type: "text", text }], details: { calls: calls.slice(-MAX_ROWS), subagent: link } };
		},
	};
}
