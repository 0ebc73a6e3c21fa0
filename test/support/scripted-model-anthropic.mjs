// Renders a scripted turn as an Anthropic Messages SSE stream (or an Anthropic error body).
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

const STOP_REASONS = { stop: "end_turn", length: "max_tokens", toolUse: "tool_use" };
const ERROR_TYPES = {
	400: "invalid_request_error",
	401: "authentication_error",
	403: "permission_error",
	404: "not_found_error",
	413: "request_too_large",
	429: "rate_limit_error",
	500: "api_error",
	529: "overloaded_error",
};

function sse(event, data) {
	return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function renderAnthropicError(turn) {
	if (turn.contextOverflow) {
		const { limit, requested } = overflowNumbers(turn);
		return {
			type: "error",
			error: { type: "invalid_request_error", message: `prompt is too long: ${requested} tokens > ${limit} maximum` },
		};
	}
	const type = turn.errorType ?? ERROR_TYPES[turn.status] ?? "api_error";
	return { type: "error", error: { type, message: turn.errorMessage ?? `scripted ${turn.status} ${type}` } };
}

function renderStreamError(streamError) {
	return sse("error", {
		type: "error",
		error: { type: streamError.type ?? "overloaded_error", message: streamError.message ?? "Overloaded" },
	});
}

export function renderAnthropic(turn, body) {
	return withStreamError(renderEvents(turn, body), turn, renderStreamError);
}

function* renderEvents(turn, body) {
	const usage = resolveUsage(turn, body);
	const size = turn.chunkSize ?? 8;
	yield sse("message_start", {
		type: "message_start",
		message: {
			id: makeId("msg_"),
			type: "message",
			role: "assistant",
			model: body.model,
			content: [],
			stop_reason: null,
			stop_sequence: null,
			usage: {
				input_tokens: usage.input,
				output_tokens: 1,
				cache_read_input_tokens: usage.cacheRead,
				cache_creation_input_tokens: usage.cacheWrite,
			},
		},
	});

	let index = 0;
	if (turn.thinking !== undefined) {
		yield sse("content_block_start", {
			type: "content_block_start",
			index,
			content_block: { type: "thinking", thinking: "", signature: "" },
		});
		for (const piece of chunkString(turn.thinking, size)) {
			yield sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: piece } });
		}
		yield sse("content_block_delta", {
			type: "content_block_delta",
			index,
			delta: { type: "signature_delta", signature: turn.thinkingSignature ?? `sig-${makeId("")}` },
		});
		yield sse("content_block_stop", { type: "content_block_stop", index });
		index++;
	}

	if (turn.text !== undefined || turn.endless) {
		yield sse("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
		for (const piece of textChunks(turn)) {
			yield sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } });
		}
		yield sse("content_block_stop", { type: "content_block_stop", index });
		index++;
	}

	for (const call of turn.toolCalls ?? []) {
		yield sse("content_block_start", {
			type: "content_block_start",
			index,
			content_block: { type: "tool_use", id: call.id ?? makeId("toolu_"), name: call.name, input: {} },
		});
		for (const piece of chunkString(toolArgumentsJson(call), size)) {
			yield sse("content_block_delta", {
				type: "content_block_delta",
				index,
				delta: { type: "input_json_delta", partial_json: piece },
			});
		}
		yield sse("content_block_stop", { type: "content_block_stop", index });
		index++;
	}

	const stop = neutralStop(turn);
	yield sse("message_delta", {
		type: "message_delta",
		delta: { stop_reason: STOP_REASONS[stop] ?? stop, stop_sequence: null },
		usage: { output_tokens: usage.output },
	});
	yield sse("message_stop", { type: "message_stop" });
}
