// What get_state, get_session_stats and the model commands answer: the session's state as plain data.
import type { AgentMessage, AssistantMessage, Model, AgentSession } from "../../core/index.js";
import { answerText } from "../../core/index.js";

/** A model as the client sees it: without `headers`, which may carry credentials from models.json. */
export type PublicModel = Omit<Model, "headers">;

export function publicModel(model: Model): PublicModel {
	const { headers: _headers, ...rest } = model;
	return rest;
}

/** What the RPC mode knows beyond the session: whether a compaction is going on, a prompt is starting. */
export interface ModeState {
	isCompacting: boolean;
	isStarting: boolean;
}

/** get_state: Pi's fields (model, thinkingLevel, isStreaming, ...) and loom's (queue, usage, contextUsage, ...). */
export function sessionState(session: AgentSession, mode: ModeState) {
	const queue = session.queue;
	return {
		model: session.modelError ? null : publicModel(session.model),
		provider: session.provider,
		modelId: session.modelId,
		...(session.modelError ? { modelError: session.modelError } : {}),
		thinkingLevel: session.thinkingLevel,
		toolExecution: session.agent.toolExecution,
		isStreaming: session.isStreaming || mode.isStarting,
		isCompacting: mode.isCompacting,
		steeringMode: session.agent.steeringMode,
		followUpMode: session.agent.followUpMode,
		sessionId: session.sessionId,
		sessionFile: session.sessionFile ?? null,
		cwd: session.cwd,
		messageCount: session.messageCount,
		pendingMessageCount: queue.steering.length + queue.followUp.length,
		queue,
		usage: session.usageTotals,
		contextUsage: session.contextUsage,
		tools: session.tools.map((tool) => tool.name),
		// The latest batch's tool calls as the session keeps them (status, timings, description, results).
		toolCalls: [...session.toolCalls.values()],
		// auto, ask, read-only or plan (run_command "approval" changes it); null without an approval policy.
		approvalMode: session.approvalMode ?? null,
		// The background shells bash started (id, command, status); their changes arrive as background_shells_changed.
		backgroundShells: session.backgroundShells,
		// The todo list (each change also arrives as todo_changed).
		todos: session.todos,
	};
}

/** get_session_stats: message counts by kind, tokens and cost. */
export function sessionStats(session: AgentSession) {
	const count = (role: string) => session.messages.filter((message) => message.role === role).length;
	const usage = session.usageTotals;
	return {
		sessionFile: session.sessionFile ?? null,
		sessionId: session.sessionId,
		userMessages: count("user"),
		assistantMessages: count("assistant"),
		toolCalls: session.messages.reduce((sum, message) => sum + toolCalls(message), 0),
		toolResults: count("toolResult"),
		totalMessages: session.messageCount,
		tokens: {
			input: usage.input,
			output: usage.output,
			cacheRead: usage.cacheRead,
			cacheWrite: usage.cacheWrite,
			total: usage.input + usage.output + usage.cacheRead + usage.cacheWrite,
		},
		cost: usage.cost,
	};
}

function toolCalls(message: AgentMessage): number {
	if (message.role !== "assistant") return 0;
	return (message as AssistantMessage).content.filter((part) => part.type === "toolCall").length;
}

/** The text of the conversation's last assistant message, or null. */
export function lastAssistantText(session: AgentSession): string | null {
	const last = session.messages.findLast((message) => message.role === "assistant") as AssistantMessage | undefined;
	return last ? answerText(last) : null;
}
