// Renders a scripted turn as an OpenAI Responses SSE stream (or an OpenAI error body): every event named by its
// `type` and numbered, output items (reasoning, message, function calls) each added, streamed and done, and the
// response's end as response.completed or response.incomplete with its usage.
import { renderOpenAIError } from "./scripted-model-openai.mjs";
import { chunkString, makeId, neutralStop, resolveUsage, textChunks, toolArgumentsJson, withStreamError } from "./scripted-model-common.mjs";

const INCOMPLETE_REASONS = { length: "max_output_tokens", content_filter: "content_filter" };

export function renderResponsesError(turn) {
	if (turn.contextOverflow) {
		return {
			error: {
				message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
				type: "invalid_request_error",
				param: "input",
				code: "context_length_exceeded",
			},
		};
	}
	return renderOpenAIError(turn);
}

export function renderResponses(turn, body) {
	let sequence = 0;
	const event = (value) => `event: ${value.type}\ndata: ${JSON.stringify({ ...value, sequence_number: sequence++ })}\n\n`;
	const renderError = (streamError) =>
		event({ type: "error", code: streamError.type ?? "server_error", message: streamError.message ?? "Overloaded", param: null });
	return withStreamError(renderEvents(turn, body, event), turn, renderError);
}

function* renderEvents(turn, body, event) {
	const usage = resolveUsage(turn, body);
	const size = turn.chunkSize ?? 8;
	const response = {
		id: makeId("resp_"),
		object: "response",
		created_at: Math.floor(Date.now() / 1000),
		status: "in_progress",
		model: body.model,
		output: [],
		usage: null,
		store: body.store ?? true,
	};
	yield event({ type: "response.created", response });
	yield event({ type: "response.in_progress", response });

	const output = [];
	if (turn.thinking !== undefined) {
		const output_index = output.length;
		const id = makeId("rs_");
		yield event({ type: "response.output_item.added", output_index, item: { id, type: "reasoning", summary: [] } });
		const part = { item_id: id, output_index, summary_index: 0 };
		yield event({ type: "response.reasoning_summary_part.added", ...part, part: { type: "summary_text", text: "" } });
		for (const delta of chunkString(turn.thinking, size)) yield event({ type: "response.reasoning_summary_text.delta", ...part, delta });
		yield event({ type: "response.reasoning_summary_text.done", ...part, text: turn.thinking });
		yield event({ type: "response.reasoning_summary_part.done", ...part, part: { type: "summary_text", text: turn.thinking } });
		const item = { id, type: "reasoning", summary: [{ type: "summary_text", text: turn.thinking }] };
		// Asked for (store off), the reasoning comes back encrypted, to be sent with the next request.
		if (body.include?.includes("reasoning.encrypted_content")) item.encrypted_content = turn.thinkingSignature ?? `enc-${makeId("")}`;
		output.push(item);
		yield event({ type: "response.output_item.done", output_index, item });
	}

	if (turn.text !== undefined || turn.endless) {
		const output_index = output.length;
		const id = makeId("msg_");
		const head = { id, type: "message", status: "in_progress", role: "assistant", content: [] };
		yield event({ type: "response.output_item.added", output_index, item: head });
		const at = { item_id: id, output_index, content_index: 0 };
		yield event({ type: "response.content_part.added", ...at, part: { type: "output_text", text: "", annotations: [] } });
		let text = "";
		for (const delta of textChunks(turn)) {
			text += delta;
			yield event({ type: "response.output_text.delta", ...at, delta, logprobs: [] });
		}
		const part = { type: "output_text", text, annotations: [] };
		yield event({ type: "response.output_text.done", ...at, text, logprobs: [] });
		yield event({ type: "response.content_part.done", ...at, part });
		const item = { ...head, status: "completed", content: [part] };
		output.push(item);
		yield event({ type: "response.output_item.done", output_index, item });
	}

	const calls = (turn.toolCalls ?? []).map((call, i) => {
		const output_index = output.length + i;
		const item = { id: makeId("fc_"), type: "function_call", status: "in_progress", arguments: "", call_id: call.id ?? makeId("call_"), name: call.name };
		return { output_index, item, args: toolArgumentsJson(call), pieces: chunkString(toolArgumentsJson(call), size) };
	});
	const added = (call) => event({ type: "response.output_item.added", output_index: call.output_index, item: call.item });
	const delta = (call, piece) => event({ type: "response.function_call_arguments.delta", item_id: call.item.id, output_index: call.output_index, delta: piece });
	function* done(call) {
		yield event({ type: "response.function_call_arguments.done", item_id: call.item.id, output_index: call.output_index, arguments: call.args });
		const item = { ...call.item, status: "completed", arguments: call.args };
		output.push(item);
		yield event({ type: "response.output_item.done", output_index: call.output_index, item });
	}
	if (turn.interleave) {
		// Every call's arguments arrive mixed with the others', told apart only by output_index.
		for (const call of calls) yield added(call);
		const longest = Math.max(0, ...calls.map((call) => call.pieces.length));
		for (let i = 0; i < longest; i++) for (const call of calls) if (i < call.pieces.length) yield delta(call, call.pieces[i]);
		for (const call of calls) yield* done(call);
	} else {
		for (const call of calls) {
			yield added(call);
			for (const piece of call.pieces) yield delta(call, piece);
			yield* done(call);
		}
	}

	const stop = neutralStop(turn);
	const reason = INCOMPLETE_REASONS[stop];
	const final = {
		...response,
		status: reason ? "incomplete" : "completed",
		output,
		incomplete_details: reason ? { reason } : null,
		usage: turn.omitUsage
			? null
			: {
					input_tokens: usage.input + usage.cacheRead,
					input_tokens_details: { cached_tokens: usage.cacheRead },
					output_tokens: usage.output,
					output_tokens_details: { reasoning_tokens: usage.reasoning },
					total_tokens: usage.input + usage.cacheRead + usage.output,
				},
	};
	yield event({ type: reason ? "response.incomplete" : "response.completed", response: final });
}
