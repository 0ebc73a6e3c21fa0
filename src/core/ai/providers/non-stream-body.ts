// A provider answered a streaming request with something that is not an event stream (a JSON error body, an
// HTML page, a complete non-streamed answer): say what the server said, and whether trying again can help.
import { stripToOneLine } from "../../lib/index.js";
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

/** Reads at most NON_STREAM_READ_LIMIT bytes of a body as text, then lets the connection go. */
export async function readBodyStart(response: Response): Promise<string> {
	const reader = response.body?.getReader();
	if (!reader) return "";
	const decoder = new TextDecoder();
	let text = "";
	let bytes = 0;
	try {
		while (bytes < NON_STREAM_READ_LIMIT) {
			const { done, value } = await reader.read();
			if (done) break;
			bytes += value.length;
			text += decoder.decode(value, { stream: true });
		}
		return text + decoder.decode();
	} finally {
		reader.cancel().catch(() => {});
	}
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
