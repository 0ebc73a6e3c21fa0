// Types of the scripted model server (scripted-model-server.mjs).

/** A tool call the scripted model makes. `arguments` may be a raw JSON string (even an invalid one). */
export interface ScriptedToolCall {
	/** Default: a generated one; for Gemini, sent as functionCall.id only when given (Gemini itself names no calls). */
	id?: string;
	name: string;
	arguments?: Record<string, unknown> | string;
}

/**
 * One scripted answer, protocol-neutral: rendered as Anthropic Messages, OpenAI Chat Completions, OpenAI
 * Responses or Gemini SSE depending on the request path. Content order in the stream: thinking, text, tool calls.
 */
export interface ScriptedTurn {
	text?: string;
	thinking?: string;
	/**
	 * The signature sent with the thinking (default: a generated one): Anthropic's thinking signature, the
	 * Responses reasoning item's encrypted_content (when the request asks for it), Gemini's thought signature.
	 */
	thinkingSignature?: string;
	toolCalls?: ScriptedToolCall[];
	/**
	 * Token usage reported; each missing field is estimated (about 4 characters a token). `reasoning` is the part
	 * of output spent thinking (Responses and Gemini report it).
	 */
	usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number; reasoning?: number };
	/** "stop" | "length" | "toolUse", or a raw provider value (e.g. "refusal", "content_filter"). Default from toolCalls. */
	stopReason?: "stop" | "length" | "toolUse" | (string & {});
	/** Characters per delta (default 8); tool-call arguments are split the same way. */
	chunkSize?: number;
	/** Pause between SSE events. */
	chunkDelayMs?: number;
	/** Pace for benchmarks: one event every 1000 / tokensPerSecond ms (overrides chunkDelayMs). */
	tokensPerSecond?: number;
	/** Repeat `text` (default "lorem ipsum ") forever until the client disconnects. */
	endless?: boolean;
	/** Answer with this HTTP error status instead of a stream (e.g. 429, 500, 529, 400). */
	status?: number;
	/** Error body to send as is (default: the provider's error shape). */
	errorBody?: unknown;
	errorType?: string;
	errorMessage?: string;
	/** Seconds; sent as `retry-after` and `retry-after-ms`. */
	retryAfter?: number;
	/** Answer with the provider's context-too-long error (HTTP 400 unless `status` says otherwise). */
	contextOverflow?: boolean;
	contextWindow?: number;
	requestedTokens?: number;
	/** Write this many SSE events, then destroy the socket (a connection cut mid-stream). */
	cutAfterChunks?: number;
	/** Send a malformed event (this raw data, or a truncated JSON) after `cutAfterChunks ?? 2` events, then end. */
	malformed?: boolean | string;
	/** A provider error event inside the stream after `afterChunks` events (default 1), then end. */
	streamError?: { message?: string; type?: string; afterChunks?: number };
	/** Wait this long before sending the response headers (slow server). */
	hangMs?: number;
	/** After the first event, this many keep-alive pings (Anthropic `ping` events, SSE comments for OpenAI). */
	pings?: number;
	/** Pause before each ping (default 100 ms). */
	pingIntervalMs?: number;
	/** Extra response headers. */
	headers?: Record<string, string>;
	/** Answer in this wire format whatever the request asked for (a server that speaks another API). */
	speak?: "anthropic" | "openai" | "openai-responses" | "google";
	/** Answer with this body as is (a string, or a value sent as JSON) and HTTP `status ?? 200`, not a stream. */
	rawBody?: unknown;
	/** Content type of `rawBody` (default application/json). */
	contentType?: string;
	/**
	 * The stream's events, written instead of the rendered turn: a string as is (comments, broken lines...),
	 * an object as one `data:` event of its JSON (for Anthropic preceded by `event: <its type>`).
	 * Pacing, pings and cuts apply as to rendered events.
	 */
	rawEvents?: (string | Record<string, unknown>)[];
	/** After the first event, one `data:` line of this many bytes with no line break, then the end of the body. */
	longLine?: number;
	/** Chat Completions only: omit chunk and tool-call ids. */
	omitIds?: boolean;
	/** Chat Completions: no usage chunk even when the request asked for one; Responses and Gemini: no usage. */
	omitUsage?: boolean;
	/** Chat Completions and Responses: interleave the argument chunks of parallel tool calls. */
	interleave?: boolean;
	/** OpenAI format only: the delta field carrying thinking (default "reasoning_content"). */
	reasoningField?: "reasoning_content" | "reasoning";
}

export interface RecordedRequest {
	index: number;
	method: string;
	/** Without the query. */
	path: string;
	/** Path and query, as requested. */
	url: string;
	format: "anthropic" | "openai" | "openai-responses" | "google";
	/** Request headers with authorization / x-api-key / api-key / x-goog-api-key replaced by "[redacted]". */
	headers: Record<string, string | string[] | undefined>;
	/** The parsed JSON request body. */
	body: any;
	receivedAt: number;
}

/** Returns the turn for a request, or undefined to fall back to the queue (then the default turn). */
export type ScriptedResponder = (
	body: any,
	index: number,
	request: RecordedRequest,
) => ScriptedTurn | undefined | Promise<ScriptedTurn | undefined>;

export interface ScriptedServerOptions {
	port?: number;
	host?: string;
	turns?: ScriptedTurn[];
	respond?: ScriptedResponder;
	/** Answer when the queue is empty and no responder answers (default `{ text: "ok" }`). */
	defaultTurn?: ScriptedTurn;
}

export interface ScriptedModelServer {
	/** http://127.0.0.1:PORT */
	url: string;
	port: number;
	/** Base URL for the Anthropic SDK (it appends /v1/messages). */
	anthropicBaseUrl: string;
	/** Base URL for the OpenAI SDK (Chat Completions and Responses): url + "/v1". */
	openaiBaseUrl: string;
	/** Base URL for Gemini (the API version included): url + "/v1beta". */
	googleBaseUrl: string;
	/** Every model request so far, in arrival order (live array). */
	requests: RecordedRequest[];
	enqueue(...turns: (ScriptedTurn | ScriptedTurn[])[]): void;
	/** Turns still queued. */
	pending(): number;
	setResponder(respond: ScriptedResponder | undefined): void;
	setDefaultTurn(turn: ScriptedTurn | undefined): void;
	/** Clears queue, requests, responder and default turn back to the start options. */
	reset(): void;
	waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
	close(): Promise<void>;
}

export function startScriptedModelServer(options?: ScriptedServerOptions): Promise<ScriptedModelServer>;
