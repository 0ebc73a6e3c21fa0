// Renders a scripted turn as a Gemini streamGenerateContent?alt=sse stream (or a Google API error body): one
// GenerateContentResponse per `data:` event (CRLF line ends, as Google sends them), thoughts as parts marked
// `thought`, function calls whole (Gemini does not stream arguments), the finish reason and full usage on the last.
import { chunkString, makeId, neutralStop, overflowNumbers, resolveUsage, textChunks, withStreamError } from "./scripted-model-common.mjs";

const FINISH_REASONS = { stop: "STOP", toolUse: "STOP", length: "MAX_TOKENS" };
const STATUS_NAMES = {
	400: "INVALID_ARGUMENT",
	401: "UNAUTHENTICATED",
	403: "PERMISSION_DENIED",
	404: "NOT_FOUND",
	409: "ABORTED",
	429: "RESOURCE_EXHAUSTED",
	500: "INTERNAL",
	503: "UNAVAILABLE",
	504: "DEADLINE_EXCEEDED",
};
/** Stream error types of the neutral script, as Google's error codes. */
const STREAM_ERROR_CODES = { authentication_error: 401, rate_limit_error: 429, invalid_request_error: 400 };

export function googleEvent(value) {
	return `data: ${typeof value === "string" ? value : JSON.stringify(value)}\r\n\r\n`;
}

export function renderGoogleError(turn) {
	if (turn.contextOverflow) {
		const { limit, requested } = overflowNumbers(turn);
		return {
			error: {
				code: 400,
				message: `The input token count (${requested}) exceeds the maximum number of tokens allowed (${limit}).`,
				status: "INVALID_ARGUMENT",
			},
		};
	}
	const status = turn.errorType ?? STATUS_NAMES[turn.status] ?? "UNKNOWN";
	const error = { code: turn.status, message: turn.errorMessage ?? `scripted ${turn.status} ${status}`, status };
	// Google says how long to wait in the error's RetryInfo too.
	if (turn.retryAfter !== undefined) error.details = [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${turn.retryAfter}s` }];
	return { error };
}

function renderStreamError(streamError) {
	const code = STREAM_ERROR_CODES[streamError.type] ?? 503;
	return googleEvent({ error: { code, message: streamError.message ?? "Overloaded", status: STATUS_NAMES[code] } });
}

export function renderGoogle(turn, body) {
	return withStreamError(renderEvents(turn, body), turn, renderStreamError);
}

function* renderEvents(turn, body) {
	const usage = resolveUsage(turn, body);
	const size = turn.chunkSize ?? 8;
	const responseId = makeId("");
	const modelVersion = body.model ?? "gemini-scripted";
	const promptUsage = { promptTokenCount: usage.input + usage.cacheRead, ...(usage.cacheRead ? { cachedContentTokenCount: usage.cacheRead } : {}) };
	const chunk = (parts, extra = {}) => ({
		candidates: [{ content: { parts, role: "model" }, index: 0, ...extra.candidate }],
		usageMetadata: extra.usage ?? { ...promptUsage, totalTokenCount: promptUsage.promptTokenCount },
		modelVersion,
		responseId,
	});
	// Gemini 3 signs a turn with thinking or calls: the first function call part, else the last text part.
	const signature = turn.thinkingSignature ?? (turn.thinking !== undefined || turn.toolCalls?.length ? `sig-${makeId("")}` : undefined);

	const pending = [];
	for (const piece of chunkString(turn.thinking ?? "", size)) pending.push([{ text: piece, thought: true }]);
	for (const piece of textChunks(turn)) {
		// Written as they come: an endless text never reaches the last chunk.
		for (const parts of pending.splice(0)) yield googleEvent(chunk(parts));
		pending.push([{ text: piece }]);
	}
	const calls = (turn.toolCalls ?? []).map((call, i) => {
		const functionCall = { name: call.name, args: callArguments(call.arguments) };
		if (call.id) functionCall.id = call.id;
		return i === 0 && signature ? { functionCall, thoughtSignature: signature } : { functionCall };
	});
	// Parallel calls arrive together, in one chunk.
	if (calls.length > 0) pending.push(calls);
	else if (signature) {
		const last = pending.at(-1);
		if (last && !last[0].thought) last[0].thoughtSignature = signature;
		else pending.push([{ text: "", thoughtSignature: signature }]);
	}
	if (pending.length === 0) pending.push([{ text: "" }]);

	const stop = neutralStop(turn);
	const final = {
		candidate: { finishReason: FINISH_REASONS[stop] ?? stop },
		usage: turn.omitUsage
			? undefined
			: {
					...promptUsage,
					candidatesTokenCount: usage.output - usage.reasoning,
					...(usage.reasoning ? { thoughtsTokenCount: usage.reasoning } : {}),
					totalTokenCount: usage.input + usage.cacheRead + usage.output,
				},
	};
	for (let i = 0; i < pending.length; i++) yield googleEvent(chunk(pending[i], i === pending.length - 1 ? final : {}));
}

/** Gemini's args are always an object; a scripted string is parsed, or sent as is (a malformed call). */
function callArguments(args) {
	if (args === undefined) return {};
	if (typeof args !== "string") return args;
	try {
		return JSON.parse(args);
	} catch {
		return args;
	}
}
