// StreamFn for Google's Gemini API (streamGenerateContent with alt=sse): text, thought summaries as thinking,
// function calls (given ids here: Gemini names none), thought signatures kept for the next request, usage with
// cached and thinking tokens, safety and max-token finishes.
//
// The request is sent with fetch rather than through the @google/genai client, whose types build it: the client
// reads the event stream itself and hands out parsed chunks only (so loom's reader, with its bounds, non-stream
// detection and idle tracking, could not be used), its errors drop the response headers (no retry-after) and
// fold the server's error into a JSON string, and loading it brings google-auth-library, protobufjs and ws along.
// Its 3.x versions also need Node 22.
import { randomUUID } from "node:crypto";
import type { AssistantMessageEventStream, Context, Model, AssistantMessage, ImageContent, Message, TextContent, ThinkingLevel, ToolResultMessage } from "../llm-types.js";
import { isRecord, malformed, optionalText, record, tokenCount } from "./event-shape.js";
import { readBodyStart } from "../../lib/index.js";
import { NON_STREAM_READ_LIMIT, quote } from "./non-stream-body.js";
import type { PartialAssistantMessage } from "./partial-message.js";
import { httpFetch } from "./http-fetch.js";
import { ProviderStreamError } from "./provider-error.js";
import { type FinishReason, type ProviderAttempt, type ProviderStreamOptions, runKeyedProviderStream } from "./provider-run.js";
import { readSseBody } from "./sse-body.js";
import { addSearchQuery, addSource } from "./server-blocks.js";
import type { Content, GenerationConfig, Part, ThinkingConfig, Tool as GeminiTool } from "@google/genai";
import { normalizeAnthropicToolCallId, transformMessages } from "../transform-messages.js";

// Builds a Gemini streamGenerateContent request body from the core's context, typed with the @google/genai SDK's
// types (only its types: the request itself is sent by google-generative-ai.ts, see there why).
/** The body of `models/<id>:streamGenerateContent`, in the API's JSON (field names as the SDK's types spell them). */
export interface GoogleRequestBody {
	contents: Content[];
	systemInstruction?: Content;
	tools?: GeminiTool[];
	generationConfig?: GenerationConfig;
}

/** What each thinking level asks of Gemini: a thinking budget in tokens, with thought summaries. "off" asks nothing. */
export const GOOGLE_THINKING: Readonly<Record<ThinkingLevel, ThinkingConfig | undefined>> = {
	off: undefined,
	low: { thinkingBudget: 2048, includeThoughts: true },
	medium: { thinkingBudget: 8192, includeThoughts: true },
	high: { thinkingBudget: 24576, includeThoughts: true },
};

/**
 * Gemini 3 refuses a function call in the history without the thought signature it came with. Calls it did not
 * make (another provider's, or older Gemini's) carry this value instead, which Google documents for that case.
 */
const SKIP_THOUGHT_SIGNATURE = "skip_thought_signature_validator";

export function buildGoogleParams(model: Model, context: Context, options: ProviderStreamOptions = {}): GoogleRequestBody {
	// Call ids go along (Gemini takes them, though it names none itself), restricted to the characters every API takes.
	const messages = transformMessages(context.messages, model, { normalizeToolCallId: normalizeAnthropicToolCallId });
	const body: GoogleRequestBody = { contents: convertMessages(messages, model) };
	if (context.systemPrompt) body.systemInstruction = { parts: [{ text: context.systemPrompt }] };
	const functions = (context.tools ?? []).filter((tool) => tool.serverTool !== "web_search");
	if (functions.length > 0) {
		body.tools = [
			{
				// JSON Schema as is (the older `parameters` field takes only an OpenAPI subset).
				functionDeclarations: functions.map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters })),
			},
		];
	}
	// web_search is Google Search grounding: the sources come back as the candidate's groundingMetadata.
	if (context.tools?.some((tool) => tool.serverTool === "web_search")) (body.tools ??= []).push({ googleSearch: {} });
	const config: GenerationConfig = {};
	if (options.maxTokens !== undefined) config.maxOutputTokens = options.maxTokens;
	if (options.temperature !== undefined) config.temperature = options.temperature;
	const thinking = model.reasoning && options.reasoning ? GOOGLE_THINKING[options.reasoning] : undefined;
	if (thinking) config.thinkingConfig = { ...thinking };
	// JSON Schema as is, like the tools' parametersJsonSchema (responseSchema takes only the OpenAPI subset).
	if (options.outputSchema) {
		config.responseMimeType = "application/json";
		config.responseJsonSchema = options.outputSchema.schema;
	}
	if (Object.keys(config).length > 0) body.generationConfig = config;
	return body;
}

/** True for Gemini 3 and later, which insist on thought signatures for function calls. */
function requiresCallSignatures(modelId: string): boolean {
	const match = /gemini-(\d+)/.exec(modelId);
	return match !== null && Number(match[1]) >= 3;
}

function convertMessages(messages: Message[], model: Model): Content[] {
	const contents: Content[] = [];
	for (const message of messages) {
		if (message.role === "user") {
			const parts = typeof message.content === "string" ? (message.content.trim() === "" ? [] : [{ text: message.content }]) : convertParts(message.content);
			if (parts.length > 0) contents.push({ role: "user", parts });
		} else if (message.role === "assistant") {
			const parts = convertAssistant(message, requiresCallSignatures(model.id));
			if (parts.length > 0) contents.push({ role: "model", parts });
		} else {
			// Results of one batch answer the calls together, in their order, their images after them all.
			const last = contents.at(-1);
			const { response, images } = convertResult(message);
			if (last?.role === "user" && last.parts?.[0]?.functionResponse) {
				const firstImage = last.parts.findIndex((part) => part.inlineData);
				last.parts.splice(firstImage === -1 ? last.parts.length : firstImage, 0, response);
				last.parts.push(...images);
			} else {
				contents.push({ role: "user", parts: [response, ...images] });
			}
		}
	}
	return contents;
}

function convertAssistant(message: AssistantMessage, callsNeedSignatures: boolean): Part[] {
	const parts: Part[] = [];
	// A turn Gemini signed goes back exactly as signed (of parallel calls, only the first carries a signature); an
	// unsigned one (another model's) gets the stand-in on its first call.
	let standIn = callsNeedSignatures && !message.content.some((block) => (block.type === "thinking" ? block.thinkingSignature : block.signature));
	for (const block of message.content) {
		if (block.type === "thinking") {
			// Only this model's own thoughts reach here (transformMessages made others text); unsigned ones add nothing.
			if (block.thinkingSignature) parts.push({ thought: true, text: block.thinking, thoughtSignature: block.thinkingSignature });
		} else if (block.type === "text") {
			parts.push(block.signature ? { text: block.text, thoughtSignature: block.signature } : { text: block.text });
		} else {
			const part: Part = { functionCall: { id: block.id, name: block.name, args: block.arguments ?? {} } };
			if (block.signature) part.thoughtSignature = block.signature;
			else if (standIn) part.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
			standIn = false;
			parts.push(part);
		}
	}
	return parts;
}

function convertResult(message: ToolResultMessage): { response: Part; images: Part[] } {
	const text = message.content
		.filter((block): block is TextContent => block.type === "text")
		.map((block) => block.text)
		.join("\n");
	const images = convertParts(message.content.filter((block): block is ImageContent => block.type === "image"));
	const output = text === "" ? (images.length > 0 ? "(images follow)" : "(no output)") : text;
	const response = message.isError ? { error: output } : { output };
	return { response: { functionResponse: { id: message.toolCallId, name: message.toolName, response } }, images };
}

function convertParts(blocks: (TextContent | ImageContent)[]): Part[] {
	return blocks.flatMap((block): Part[] => {
		if (block.type === "text") return block.text === "" ? [] : [{ text: block.text }];
		return [{ inlineData: { mimeType: block.mimeType, data: block.data } }];
	});
}

/** An error status from the API, or an error chunk in its stream, in the shape describeProviderError reads. */
class GoogleApiError extends Error {
	constructor(
		readonly status: number,
		/** `type` is the API's status name (RESOURCE_EXHAUSTED, UNAVAILABLE...). */
		readonly error: { type?: string; message: string },
		readonly headers: Headers,
	) {
		super(error.message);
		this.name = "GoogleApiError";
	}
}

/** Finish reasons that end an answer normally; every other one stopped it (safety, recitation, a bad call...). */
const FINISHED = new Set(["STOP", "MAX_TOKENS"]);

export function streamGoogleGenerativeAi(model: Model, context: Context, options: ProviderStreamOptions = {}): AssistantMessageEventStream {
	return runKeyedProviderStream(model, options, async (apiKey): Promise<ProviderAttempt> => {
		const url = `${model.baseUrl.replace(/\/+$/, "")}/models/${model.id}:streamGenerateContent?alt=sse`;
		const headers = { "content-type": "application/json", ...model.headers, ...options.headers, "x-goog-api-key": apiKey };
		const body = JSON.stringify(buildGoogleParams(model, context, options));
		return async ({ signal, partial, touch, fetchOptions }) => {
			const response = await httpFetch(url, { method: "POST", headers, body, signal, ...fetchOptions });
			if (!response.ok) throw await httpError(response);
			touch();
			const reader = new GeminiChunkReader(partial);
			await readSseBody(response, "google-generative-ai", touch, (_event, data) => {
				if (data === "") return;
				const chunk: unknown = JSON.parse(data);
				if (isRecord(chunk) && isRecord(chunk.error)) throw apiError(chunk.error, response.headers, 500);
				reader.handle(chunk);
			});
			return reader.finish();
		};
	});
}

/** Assembles Gemini response chunks into blocks of the partial message; a chunk of the wrong shape throws. */
class GeminiChunkReader {
	private textIndex: number | undefined;
	private thinkingIndex: number | undefined;
	private readonly toolCalls: number[] = [];
	private finishReason: string | undefined;
	private finishMessage: string | undefined;
	private blockReason: string | undefined;

	constructor(private readonly partial: PartialAssistantMessage) {}

	handle(value: unknown): void {
		const chunk = record(value, "the chunk");
		if (isRecord(chunk.usageMetadata)) this.readUsage(chunk.usageMetadata);
		if (isRecord(chunk.promptFeedback)) this.blockReason = optionalText(chunk.promptFeedback.blockReason, "promptFeedback.blockReason") ?? this.blockReason;
		const candidates = chunk.candidates;
		if (candidates === undefined || candidates === null) return;
		if (!Array.isArray(candidates)) throw malformed("candidates", candidates, "a list");
		if (candidates.length === 0) return;
		const candidate = record(candidates[0], "candidates[0]");
		const content = candidate.content === undefined || candidate.content === null ? {} : record(candidate.content, "candidates[0].content");
		const parts = content.parts ?? [];
		if (!Array.isArray(parts)) throw malformed("candidates[0].content.parts", parts, "a list");
		for (let i = 0; i < parts.length; i++) this.readPart(record(parts[i], `candidates[0].content.parts[${i}]`), `candidates[0].content.parts[${i}]`);
		if (isRecord(candidate.groundingMetadata)) readGrounding(this.partial.message, candidate.groundingMetadata);
		this.finishReason = optionalText(candidate.finishReason, "candidates[0].finishReason") ?? this.finishReason;
		this.finishMessage = optionalText(candidate.finishMessage, "candidates[0].finishMessage") ?? this.finishMessage;
	}

	finish(): FinishReason {
		if (this.finishReason === undefined) {
			if (this.blockReason && !this.partial.hasContent) {
				throw new ProviderStreamError(`Gemini blocked the prompt (blockReason: ${this.blockReason}).`);
			}
			throw new ProviderStreamError("The response stream ended before the model finished (no finishReason).", !this.partial.hasContent);
		}
		if (!FINISHED.has(this.finishReason)) {
			const why = this.finishMessage ? `: ${this.finishMessage}` : "";
			const what = this.finishReason === "SAFETY" ? "Gemini's safety filters stopped the response" : "Gemini stopped the response";
			throw new ProviderStreamError(`${what} (finishReason: ${this.finishReason})${why}.`);
		}
		if (this.finishReason === "MAX_TOKENS") return "length";
		return this.toolCalls.length > 0 ? "toolUse" : "stop";
	}

	private readPart(part: Record<string, unknown>, path: string): void {
		const partial = this.partial;
		const signature = optionalText(part.thoughtSignature, `${path}.thoughtSignature`);
		if (part.functionCall !== undefined && part.functionCall !== null) {
			const call = record(part.functionCall, `${path}.functionCall`);
			const name = optionalText(call.name, `${path}.functionCall.name`);
			if (!name) throw malformed(`${path}.functionCall.name`, call.name, "a function name");
			const args = call.args === undefined || call.args === null ? {} : record(call.args, `${path}.functionCall.args`);
			this.closeText();
			this.closeThinking();
			// Gemini names no calls: each gets an id of its own here, kept with the message, its result and the next request.
			const id = optionalText(call.id, `${path}.functionCall.id`) || `call_${randomUUID().replace(/-/g, "").slice(0, 24)}`;
			const index = partial.startToolCall(id, name);
			if (signature) partial.setSignature(index, signature);
			partial.appendToolArguments(index, JSON.stringify(args));
			partial.endBlock(index);
			this.toolCalls.push(index);
			return;
		}
		const words = optionalText(part.text, `${path}.text`);
		if (part.thought === true) {
			const index = this.thinkingBlock();
			if (words) partial.appendThinking(index, words);
			if (signature) partial.setSignature(index, signature);
		} else if (words !== undefined || signature) {
			// A signature may come alone, on an empty text part: it belongs to the text before it.
			const index = words || this.textIndex === undefined ? this.textBlock() : this.textIndex;
			if (words) partial.appendText(index, words);
			if (signature) partial.setSignature(index, signature);
		}
		// Other parts (executable code, inline data from the model...) are not part of this agent's protocol.
	}

	private textBlock(): number {
		if (this.textIndex === undefined || !this.partial.isOpen(this.textIndex)) {
			this.closeThinking();
			this.textIndex = this.partial.startText();
		}
		return this.textIndex;
	}

	private thinkingBlock(): number {
		if (this.thinkingIndex === undefined || !this.partial.isOpen(this.thinkingIndex)) {
			this.closeText();
			this.thinkingIndex = this.partial.startThinking();
		}
		return this.thinkingIndex;
	}

	private closeText(): void {
		if (this.textIndex !== undefined) this.partial.endBlock(this.textIndex);
	}

	private closeThinking(): void {
		if (this.thinkingIndex !== undefined) this.partial.endBlock(this.thinkingIndex);
	}

	private readUsage(usage: Record<string, unknown>): void {
		const cached = tokenCount(usage.cachedContentTokenCount);
		const thoughts = tokenCount(usage.thoughtsTokenCount);
		this.partial.setUsage({
			// promptTokenCount includes the cached part; ours counts it separately.
			input: Math.max(0, tokenCount(usage.promptTokenCount) + tokenCount(usage.toolUsePromptTokenCount) - cached),
			// Thinking is billed as output.
			output: tokenCount(usage.candidatesTokenCount) + thoughts,
			cacheRead: cached,
			reasoning: thoughts,
		});
	}
}

/** The API's error, from an HTTP error response: its JSON ({ error: { code, message, status } }) or text. */
async function httpError(response: Response): Promise<GoogleApiError> {
	const text = await readBodyStart(response, NON_STREAM_READ_LIMIT);
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		body = undefined;
	}
	// A list of them, as the API answers without alt=sse.
	const first = Array.isArray(body) ? body[0] : body;
	if (isRecord(first) && isRecord(first.error)) return apiError(first.error, response.headers, response.status, response.status);
	return new GoogleApiError(response.status, { message: quote(text) || response.statusText || "no details" }, response.headers);
}

/** `status` is the HTTP status when there is one; otherwise the error's own code, else `fallbackStatus`. */
function apiError(error: Record<string, unknown>, headers: Headers, fallbackStatus: number, status?: number): GoogleApiError {
	const code = typeof error.code === "number" && error.code >= 400 ? error.code : fallbackStatus;
	const type = typeof error.status === "string" && error.status !== "" ? error.status : undefined;
	const message = typeof error.message === "string" && error.message !== "" ? error.message : "no details";
	return new GoogleApiError(status ?? code, { ...(type ? { type } : {}), message }, withRetryDelay(headers, error));
}

/** Gemini says how long to wait in the error's RetryInfo ("37s") more often than in a retry-after header. */
function withRetryDelay(headers: Headers, error: Record<string, unknown>): Headers {
	if (headers.has("retry-after") || headers.has("retry-after-ms") || !Array.isArray(error.details)) return headers;
	for (const detail of error.details) {
		if (!isRecord(detail) || typeof detail.retryDelay !== "string") continue;
		const seconds = Number.parseFloat(detail.retryDelay);
		if (!Number.isFinite(seconds) || seconds < 0) continue;
		const copy = new Headers(headers);
		copy.set("retry-after-ms", String(Math.round(seconds * 1000)));
		return copy;
	}
	return headers;
}

/** Google Search grounding: its queries and the pages it rests on. Nothing of it goes back: Gemini takes the text alone. */
function readGrounding(message: AssistantMessage, metadata: Record<string, unknown>): void {
	for (const query of Array.isArray(metadata.webSearchQueries) ? metadata.webSearchQueries : []) addSearchQuery(message, query);
	for (const chunk of Array.isArray(metadata.groundingChunks) ? metadata.groundingChunks : []) {
		if (isRecord(chunk) && isRecord(chunk.web)) addSource(message, chunk.web.uri, chunk.web.title);
	}
}
