// Messages, models and the streaming protocol between a provider and the agent loop.
import type { TSchema } from "@sinclair/typebox";
import type { EventStream } from "./event-stream.js";

/** The built-in wire APIs: the provider table (api-registry.ts) has exactly one entry for each. */
export type BuiltinApi = "anthropic-messages" | "openai-completions" | "openai-responses" | "google-generative-ai";
/** A wire API: the built-in names are known; any other string names one registered at run time. */
export type Api = BuiltinApi | (string & {});
export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";
/** Every thinking level, from none to the most; each provider maps them in its entry of the provider table. */
export const THINKING_LEVELS = ["off", "low", "medium", "high"] as const;
export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

export interface TextContent {
	type: "text";
	text: string;
	/**
	 * Provider data tied to this block of an assistant message (a Gemini thought signature), sent back verbatim
	 * to the model that produced it and dropped for any other.
	 */
	signature?: string;
	/** An assistant text's citations as its provider sent them (Anthropic citations, Responses annotations), sent back to the same API. */
	citations?: unknown[];
}

export interface ThinkingContent {
	type: "thinking";
	thinking: string;
	/**
	 * Provider signature, sent back verbatim to the model that produced it (Anthropic's signature, a Gemini thought
	 * signature, an OpenAI Responses reasoning item with its encrypted content, as JSON).
	 */
	thinkingSignature?: string;
	/** Encrypted thinking the provider returned without readable text (Anthropic redacted_thinking, a reasoning item without summary). */
	redacted?: boolean;
}

export interface ImageContent {
	type: "image";
	/** base64 */
	data: string;
	mimeType: string;
}

export interface ToolCall {
	type: "toolCall";
	id: string;
	name: string;
	arguments: Record<string, any>;
	/**
	 * Why the streamed arguments were not one complete JSON object, when they were not. `arguments` then holds
	 * only the preview recovered from them, and the call is never executed: its result is an error saying so.
	 */
	argumentsError?: string;
	/** As TextContent.signature (a Gemini thought signature). */
	signature?: string;
}

export interface Usage {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	/**
	 * Of `output`, the tokens the model spent reasoning (already counted, and priced, in `output`). Absent where the
	 * provider does not say, and in sessions saved before it was recorded.
	 */
	reasoning?: number;
	totalTokens: number;
	cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
}

export interface UserMessage {
	role: "user";
	/**
	 * What the user typed, where `content` is what it stood for (a paste marker, a prompt template's command line,
	 * a file named with @, a shell command's output put ahead): shown and recalled in its place, never sent.
	 */
	typed?: string;
	content: string | (TextContent | ImageContent)[];
	timestamp: number;
}

export interface AssistantMessage {
	role: "assistant";
	content: (TextContent | ThinkingContent | ToolCall)[];
	api: Api;
	provider: string;
	model: string;
	usage: Usage;
	stopReason: StopReason;
	errorMessage?: string;
	timestamp: number;
	/** Blocks of the provider's own server-side tools (its web search), kept to be sent back to the same API. */
	serverBlocks?: ServerBlock[];
	/** What the provider's search looked for and the pages the answer rests on, for the screen, export and print mode. */
	search?: WebSearchRecord;
}

/** A block of a provider-run tool (Anthropic server_tool_use and web_search_tool_result, a Responses web_search_call). */
export interface ServerBlock {
	/** The wire API whose block it is: it goes back to that API only. */
	api: Api;
	/** How many content blocks came before it: where it goes back, in order. */
	at: number;
	/** As received. */
	raw: unknown;
}

export interface WebSource {
	url: string;
	title?: string;
}

export interface WebSearchRecord {
	queries: string[];
	/** Each page once, in the order first cited or found. */
	sources: WebSource[];
}

export interface ToolResultMessage<TDetails = any> {
	role: "toolResult";
	toolCallId: string;
	toolName: string;
	content: (TextContent | ImageContent)[];
	details?: TDetails;
	isError: boolean;
	timestamp: number;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

export interface Tool<TParameters extends TSchema = TSchema> {
	name: string;
	description: string;
	parameters: TParameters;
	/**
	 * Stands for a tool the provider runs itself: a provider that has it sends its own (Anthropic's web search tool,
	 * Responses' web_search, Gemini's googleSearch) instead of this function; one that does not sends the function,
	 * whose execute() says the search is unavailable.
	 */
	serverTool?: "web_search";
}

/** What a provider is asked: the model's view of the conversation. */
export interface Context {
	systemPrompt?: string;
	messages: Message[];
	tools?: Tool[];
}

export interface ModelCost {
	/** US dollars per million tokens. */
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
}

export interface Model {
	id: string;
	name: string;
	api: Api;
	provider: string;
	baseUrl: string;
	reasoning: boolean;
	input: ("text" | "image")[];
	cost: ModelCost;
	contextWindow: number;
	maxTokens: number;
	headers?: Record<string, string>;
}

export type AssistantMessageEvent =
	| { type: "start"; partial: AssistantMessage }
	| { type: "text_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "text_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "text_end"; contentIndex: number; content: string; partial: AssistantMessage }
	| { type: "thinking_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "thinking_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "thinking_end"; contentIndex: number; content: string; partial: AssistantMessage }
	| { type: "toolcall_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "toolcall_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall; partial: AssistantMessage }
	| { type: "done"; reason: Extract<StopReason, "stop" | "length" | "toolUse">; message: AssistantMessage }
	| { type: "error"; reason: Extract<StopReason, "aborted" | "error">; error: AssistantMessage };

export type AssistantMessageEventStream = EventStream<AssistantMessageEvent, AssistantMessage>;

/** Reported by a provider before it waits to retry a failed request. */
export interface RetryInfo {
	attempt: number;
	maxRetries: number;
	delayMs: number;
	reason: string;
}

export interface StreamOptions {
	apiKey?: string;
	signal?: AbortSignal;
	reasoning?: ThinkingLevel;
	maxTokens?: number;
	temperature?: number;
	/** Retries of failures before any content arrived (default 3). */
	maxRetries?: number;
	/** End the stream with an error after this long without output (default 5 minutes). */
	idleTimeoutMs?: number;
	onRetry?: (info: RetryInfo) => void;
	/** Called once each attempt's request has been written to the connection (the SDK loaded, the request built). */
	onRequest?: () => void;
	headers?: Record<string, string>;
	/**
	 * The final answer must be JSON valid against this schema: each provider asks for it its own way (Anthropic: a
	 * forced output tool whose input comes back as the text; OpenAI: response_format / text.format; Gemini:
	 * responseJsonSchema). The text is still validated by whoever asked (a model may not keep to it).
	 */
	outputSchema?: OutputSchema;
}

/** A JSON Schema the final answer must follow, and the name providers give it. */
export interface OutputSchema {
	/** Letters, digits, _ and - (the name OpenAI's response_format asks for). */
	name: string;
	schema: Record<string, unknown>;
}

/**
 * Streams one assistant message. Never throws and never rejects: failures end the stream
 * with an `error` event carrying the partial message.
 */
export type StreamFn = (
	model: Model,
	context: Context,
	options?: StreamOptions,
) => AssistantMessageEventStream | Promise<AssistantMessageEventStream>;
