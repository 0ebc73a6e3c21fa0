// Renders a scripted turn as an OpenAI Chat Completions SSE stream (or an OpenAI error body).
import {
	chunkString,
	makeId,
	neutralStop,
	overflowNumbers,
	resolveUsage,
	textChunks,
	toolArgumentsJson,
	withStreamError,
} from "./scripted-model-common.mjs";

const FINISH_REASONS = { stop: "stop", length: "length", toolUse: "tool_calls" };
const ERROR_TYPES = {
	400: "invalid_request_error",
	401: "invalid_api_key",
	404: "not_found_error",
	429: "rate_limit_exceeded",
	500: "server_error",
	503: "server_error",
};

function data(value) {
	return `data: ${typeof value === "string" ? value : JSON.stringify(value)}\n\n`;
}

export function renderOpenAIError(turn) {
	if (turn.contextOverflow) {
		const { limit, requested } = overflowNumbers(turn);
		return {
			error: {
				message: `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${requested} tokens. Please reduce the length of the messages.`,
				type: "invalid_request_error",
				param: "messages",
				code: "context_length_exceeded",
			},
		};
	}
	const type = turn.errorType ?? ERROR_TYPES[turn.status] ?? "server_error";
	return { error: { message: turn.errorMessage ?? `scripted ${turn.status} ${type}`, type, param: null, code: type } };
}

function renderStreamError(streamError) {
	return data({ error: { message: streamError.message ?? "Overloaded", type: streamError.type ?? "server_error", code: null } });
}

export function renderOpenAI(turn, body) {
	return withStreamError(renderEvents(turn, body), turn, renderStreamError);
}

function* renderEvents(turn, body) {
	const usage = resolveUsage(turn, body);
	const size = turn.chunkSize ?? 8;
	const id = makeId("chatcmpl-");
	const created = Math.floor(Date.now() / 1000);
	const chunk = (delta, finishReason = null) => {
		const value = {
			object: "chat.completion.chunk",
			created,
			model: body.model,
			choices: [{ index: 0, delta, finish_reason: finishReason }],
		};
		if (!turn.omitIds) value.id = id;
		return data(value);
	};

	yield chunk({ role: "assistant", content: "" });
	const reasoningField = turn.reasoningField ?? "reasoning_content";
	for (const piece of chunkString(turn.thinking ?? "", size)) yield chunk({ [reasoningField]: piece });
	for (const piece of textChunks(turn)) yield chunk({ content: piece });

	const calls = (turn.toolCalls ?? []).map((call, index) => ({
		index,
		head: {
			index,
			...(turn.omitIds ? {} : { id: call.id ?? makeId("call_") }),
			type: "function",
			function: { name: call.name, arguments: "" },
		},
		pieces: chunkString(toolArgumentsJson(call), size),
	}));
	if (turn.interleave) {
		// Round-robin: every call's arguments arrive mixed with the others', assembled only by index.
		for (const call of calls) yield chunk({ tool_calls: [call.head] });
		const longest = Math.max(0, ...calls.map((call) => call.pieces.length));
		for (let i = 0; i < longest; i++) {
			for (const call of calls) {
				if (i < call.pieces.length) yield chunk({ tool_calls: [{ index: call.index, function: { arguments: call.pieces[i] } }] });
			}
		}
	} else {
		for (const call of calls) {
			yield chunk({ tool_calls: [call.head] });
			for (const piece of call.pieces) yield chunk({ tool_calls: [{ index: call.index, function: { arguments: piece } }] });
		}
	}

	const stop = neutralStop(turn);
	yield chunk({}, FINISH_REASONS[stop] ?? stop);
	if (body.stream_options?.include_usage && !turn.omitUsage) {
		const value = {
			object: "chat.completion.chunk",
			created,
			model: body.model,
			choices: [],
			usage: {
				prompt_tokens: usage.input + usage.cacheRead,
				completion_tokens: usage.output,
				total_tokens: usage.input + usage.cacheRead + usage.output,
				prompt_tokens_details: { cached_tokens: usage.cacheRead },
				completion_tokens_details: { reasoning_tokens: usage.reasoning },
			},
		};
		if (!turn.omitIds) value.id = id;
		yield data(value);
	}
	yield data("[DONE]");
}
