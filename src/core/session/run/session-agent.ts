// The Agent a session drives: its initial state from the session file and the tools, the session's hook chains,
// compaction's view of the context, the turn limit and retry reports; the key only for the chosen provider.
import { Agent } from "../../engine/index.js";
import type { AgentMessage, ToolDefinition } from "../../engine/index.js";
import type { Message, RetryInfo, ThinkingLevel } from "../../ai/index.js";
import type { AgentSessionOptions } from "../agent-session-types.js";
import { convertToLlmWithSummaries } from "../compaction/index.js";
import { repairConversation } from "../store/index.js";
import type { ToolHooks } from "../hook-chain.js";
import type { ModelChoice } from "../model-choice.js";

export interface SessionAgentParts {
	options: AgentSessionOptions;
	choice: ModelChoice;
	hooks: ToolHooks;
	systemPrompt: string;
	tools: ToolDefinition[];
	messages: AgentMessage[];
	thinkingLevel: ThinkingLevel;
	/** Compaction's view of the messages before each model call. */
	compactedView(messages: AgentMessage[], signal?: AbortSignal): Promise<AgentMessage[]>;
	/** Counts a model turn; true once the run reached its limit or failed. */
	countTurn(): boolean;
	onRetry(info: RetryInfo): void;
	/** Each model request handed to the provider's SDK. */
	onRequest(): void;
}

export function createSessionAgent(parts: SessionAgentParts): Agent {
	const { options, choice } = parts;
	return new Agent({
		initialState: { systemPrompt: parts.systemPrompt, model: choice.model, thinkingLevel: parts.thinkingLevel, tools: parts.tools, messages: parts.messages },
		streamFn: options.streamFn,
		// Repaired last, on what the provider receives: no view of a damaged file sends a sequence it rejects.
		convertToLlm: (messages) => repairConversation(convertToLlmWithSummaries(messages)).messages as Message[],
		// Only for the provider chosen: a request still going to another one never gets this key.
		getApiKey: (provider) => (provider === choice.provider ? choice.currentApiKey() : undefined),
		toolExecution: options.toolExecution ?? "parallel",
		beforeToolCall: parts.hooks.beforeToolCall,
		afterToolCall: parts.hooks.afterToolCall,
		transformContext: async (messages, signal) => {
			const view = await parts.compactedView(messages, signal);
			return options.transformContext ? options.transformContext(view, signal) : view;
		},
		shouldStopAfterTurn: () => parts.countTurn(),
		streamOptions: {
			maxRetries: options.maxRetries,
			idleTimeoutMs: options.idleTimeoutMs,
			onRetry: (info) => parts.onRetry(info),
			onRequest: () => parts.onRequest(),
			outputSchema: options.outputSchema,
		},
	});
}
