// Protocol-neutral pieces shared by the Anthropic and OpenAI renderers of the scripted model server.

let nextId = 1;

/** A short unique id with a provider-looking prefix. */
export function makeId(prefix) {
	return `${prefix}${Date.now().toString(36)}${(nextId++).toString(36).padStart(4, "0")}`;
}

export function chunkString(text, size) {
	const chunks = [];
	const step = Math.max(1, size ?? 8);
	for (let i = 0; i < text.length; i += step) chunks.push(text.slice(i, i + step));
	return chunks;
}

/** Text deltas of a turn; with `endless` they repeat the text forever (benchmarks stop by disconnecting). */
export function* textChunks(turn) {
	const text = turn.text ?? (turn.endless ? "lorem ipsum " : "");
	const chunks = chunkString(text, turn.chunkSize ?? 8);
	if (!turn.endless) {
		yield* chunks;
		return;
	}
	if (chunks.length === 0) return;
	for (;;) yield* chunks;
}

export function toolArgumentsJson(call) {
	const args = call.arguments ?? {};
	return typeof args === "string" ? args : JSON.stringify(args);
}

/** Roughly four characters a token, which is close enough for usage and overflow tests. */
export function estimateTokens(value) {
	if (value === undefined || value === null) return 0;
	const text = typeof value === "string" ? value : JSON.stringify(value);
	return Math.ceil(text.length / 4);
}

/** The turn's usage, or an estimate from the request (in any of the four formats) and the scripted output. */
export function resolveUsage(turn, body) {
	const given = turn.usage ?? {};
	const promptTokens = estimateTokens({
		system: body.system ?? body.instructions ?? body.systemInstruction,
		messages: body.messages ?? body.input ?? body.contents,
		tools: body.tools,
	});
	const outputText =
		(turn.text ?? "") + (turn.thinking ?? "") + (turn.toolCalls ?? []).map((call) => toolArgumentsJson(call)).join("");
	return {
		input: given.input ?? promptTokens,
		output: given.output ?? Math.max(1, estimateTokens(outputText)),
		cacheRead: given.cacheRead ?? 0,
		cacheWrite: given.cacheWrite ?? 0,
		// Of output: the thinking's share (Responses and Gemini report it).
		reasoning: given.reasoning ?? (turn.thinking ? estimateTokens(turn.thinking) : 0),
	};
}

/** The neutral stop reason ("stop" | "length" | "toolUse") or a raw provider value passed through. */
export function neutralStop(turn) {
	return turn.stopReason ?? ((turn.toolCalls?.length ?? 0) > 0 ? "toolUse" : "stop");
}

/**
 * Wraps a generator of SSE strings so that a scripted mid-stream provider error replaces the rest of the
 * stream after `streamError.afterChunks` events (default: right after the first event).
 */
export function* withStreamError(events, turn, renderError) {
	if (!turn.streamError) {
		yield* events;
		return;
	}
	const after = turn.streamError.afterChunks ?? 1;
	let count = 0;
	for (const event of events) {
		if (count === after) break;
		yield event;
		count++;
	}
	yield renderError(turn.streamError);
}

export function overflowNumbers(turn) {
	const limit = turn.contextWindow ?? 200000;
	return { limit, requested: turn.requestedTokens ?? limit + 50000 };
}
