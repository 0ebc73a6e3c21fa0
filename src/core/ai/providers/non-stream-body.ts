// A provider answered a streaming request with something that is not its event stream (a JSON error body, an
// HTML page, a complete non-streamed answer, the events of another wire API): say what the server said, and
// whether trying again can help.
import { stripToOneLine } from "../../lib/index.js";
import type { BuiltinApi } from "../llm-types.js";
import { ProviderStreamError, RETRYABLE_STREAM_ERROR_TYPES } from "./provider-error.js";

/** Enough of a body to find its message; the rest is not read. */
export const NON_STREAM_READ_LIMIT = 64 * 1024;
/** Longest part of a server's text that is quoted in an error message. */
const QUOTE_LIMIT = 300;

/** True for a content type that is certainly not an event stream. */
export function isNonStreamContentType(contentType: string): boolean {
	return /json|html/i.test(contentType);
}

/** True when text a server sent as its whole body looks like JSON or HTML rather than events. */
export function looksLikeNonStreamBody(text: string): boolean {
	return /^\s*[{<[]/.test(text);
}

/** The error for a body (or its first NON_STREAM_READ_LIMIT bytes) that came instead of an event stream. */
export function nonStreamError(text: string, contentType: string): ProviderStreamError {
	const json = parseJson(text);
	if (json !== undefined) return describeJson(json);
	if (/html/i.test(contentType) || /^\s*</.test(text)) {
		return new ProviderStreamError(
			`The server answered with an HTML page instead of an event stream (check the base URL): ${quote(htmlText(text))}`,
		);
	}
	return new ProviderStreamError(
		`The server answered with ${contentType ? `"${quote(contentType)}"` : "a body"} instead of an event stream: ${quote(text)}`,
	);
}

/** What each built-in wire API's stream events look like, for telling which one a server speaks. */
const WIRE_EVENTS: Record<BuiltinApi, { name: string; matches: (event: string | undefined, data: Record<string, unknown>) => boolean }> = {
	"openai-completions": {
		name: "OpenAI Chat Completions",
		matches: (_event, data) => data.object === "chat.completion.chunk" || (Array.isArray(data.choices) && data.type === undefined),
	},
	"openai-responses": { name: "OpenAI Responses", matches: (_event, data) => typeof data.type === "string" && data.type.startsWith("response.") },
	"anthropic-messages": {
		name: "Anthropic Messages",
		matches: (event, data) => ANTHROPIC_EVENTS.has(event ?? "") || ANTHROPIC_EVENTS.has(String(data.type)),
	},
	"google-generative-ai": { name: "Google Generative AI", matches: (_event, data) => Array.isArray(data.candidates) || isRecordLike(data.usageMetadata) },
};
const ANTHROPIC_EVENTS = new Set(["message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"]);

/** The built-in wire API a stream event plainly belongs to; undefined when it cannot be told (a ping, a comment). */
export function wireApiOf(event: string | undefined, data: string): BuiltinApi | undefined {
	const parsed = parseJson(data);
	if (!isRecordLike(parsed)) return undefined;
	return (Object.keys(WIRE_EVENTS) as BuiltinApi[]).find((api) => WIRE_EVENTS[api].matches(event, parsed));
}

/** The error for a stream of `found`'s events sent to a model whose API is `api`: the same request gets the same answer. */
export function otherWireFormatError(api: string, found: BuiltinApi): ProviderStreamError | undefined {
	// A wire API of an extension's may well speak a built-in's events.
	const expected = WIRE_EVENTS[api as BuiltinApi];
	if (!expected || found === api) return undefined;
	return new ProviderStreamError(
		`The server answered in another format: ${WIRE_EVENTS[found].name} events, while this model's API is ${expected.name} ("${api}"). ` +
			`Give the model "api": "${found}" in models.json, or choose a model the server serves with ${api}.`,
	);
}

function isRecordLike(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describeJson(json: unknown): ProviderStreamError {
	const body = (typeof json === "object" && json !== null ? json : {}) as Record<string, any>;
	// Chat Completions, Anthropic Messages, Responses, Gemini (an object, or a list of them without alt=sse).
	const gemini = Array.isArray(json) ? json[0] : body;
	if (
		body.object === "chat.completion" ||
		Array.isArray(body.choices) ||
		body.type === "message" ||
		(body.object === "response" && Array.isArray(body.output)) ||
		(typeof gemini === "object" && gemini !== null && Array.isArray(gemini.candidates))
	) {
		return new ProviderStreamError(
			"The server answered with a complete, non-streamed response instead of an event stream; it does not seem to support streaming (stream: true).",
		);
	}
	const error = typeof body.error === "object" && body.error !== null ? body.error : body;
	const message = [error.message, body.error, body.message, body.detail].find((value) => typeof value === "string" && value !== "");
	const kind = [error.type, error.code, error.status].find((value) => (typeof value === "string" && value !== "") || typeof value === "number");
	const text = message ?? JSON.stringify(json);
	const retryable =
		(typeof kind === "string" && RETRYABLE_STREAM_ERROR_TYPES.has(kind)) ||
		(typeof kind === "number" && (kind === 429 || kind >= 500));
	return new ProviderStreamError(
		`The server answered with an error instead of an event stream: ${quote(text)}${kind !== undefined ? ` (${quote(String(kind))})` : ""}`,
		retryable,
	);
}

function parseJson(text: string): unknown {
	if (!/^\s*[{[]/.test(text)) return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** The visible words of a page: no scripts, styles, tags or entities. */
function htmlText(html: string): string {
	return html
		.replace(/<(script|style)\b[\s\S]*?(<\/\1\s*>|$)/gi, " ")
		.replace(/<!--[\s\S]*?(-->|$)/g, " ")
		.replace(/<[^>]*>?/g, " ")
		.replace(/&nbsp;/gi, " ")
		.replace(/&lt;/gi, "<")
		.replace(/&gt;/gi, ">")
		.replace(/&quot;/gi, '"')
		.replace(/&#39;|&apos;/gi, "'")
		.replace(/&amp;/gi, "&");
}

/** One line, no control characters or escape sequences, at most QUOTE_LIMIT characters. */
export function quote(text: string): string {
	const line = stripToOneLine(text);
	return line.length > QUOTE_LIMIT ? `${line.slice(0, QUOTE_LIMIT - 1)}…` : line;
}
