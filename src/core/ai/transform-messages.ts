// Makes a conversation safe to send to a given model, whatever produced it:
// - errored or aborted assistant messages are dropped (their partial content would confuse the model);
// - every tool call gets a result (a synthetic error one when none was recorded), orphan results go;
// - thinking from another provider/model becomes plain text, and the provider data of its other blocks goes
//   (signatures, reasoning items and item ids are only valid where issued);
// - images become a short note when the model does not accept them;
// - tool call ids are made acceptable to the target API and unique within their message (pairs stay matched:
//   results of calls that shared an id pair with them in order).
import type {
	AssistantMessage,
	ImageContent,
	Message,
	Model,
	TextContent,
	ToolCall,
	UserMessage,
} from "./llm-types.js";

export const NO_RESULT_TEXT = "No result was recorded for this tool call (the run was interrupted).";
const IMAGE_OMITTED = "(image omitted: this model does not accept images)";

export interface TransformOptions {
	/** Rewrites a tool call id for the target API; must be deterministic. */
	normalizeToolCallId?: (id: string) => string;
}

export function transformMessages(messages: Message[], model: Model, options: TransformOptions = {}): Message[] {
	const normalize = options.normalizeToolCallId ?? ((id: string) => id);
	const acceptsImages = model.input.includes("image");
	const out: Message[] = [];
	let pending: ToolCall[] = [];
	/** A pending call's id as stored → the ids sent for its calls (several when ids were shared), in order. */
	const waiting = new Map<string, string[]>();
	const answered = new Set<string>();

	const flushPending = () => {
		for (const call of pending) {
			if (answered.has(call.id)) continue;
			out.push({
				role: "toolResult",
				toolCallId: call.id,
				toolName: call.name,
				content: [{ type: "text", text: NO_RESULT_TEXT }],
				isError: true,
				timestamp: Date.now(),
			});
		}
		pending = [];
		waiting.clear();
		answered.clear();
	};

	for (const message of messages) {
		if (message.role === "assistant") {
			if (message.stopReason === "error" || message.stopReason === "aborted") continue;
			flushPending();
			const converted = convertAssistant(message, model, normalize, waiting);
			if (converted.content.length === 0) continue;
			out.push(converted);
			pending = converted.content.filter((block): block is ToolCall => block.type === "toolCall");
		} else if (message.role === "toolResult") {
			const id = waiting.get(message.toolCallId)?.shift();
			// A result without its call (e.g. the call's message errored) would be rejected by the API.
			if (id === undefined) continue;
			answered.add(id);
			out.push({ ...message, toolCallId: id, content: convertContent(message.content, acceptsImages) });
		} else {
			flushPending();
			out.push(convertUser(message, acceptsImages));
		}
	}
	flushPending();
	return out;
}

function convertAssistant(
	message: AssistantMessage,
	model: Model,
	normalize: (id: string) => string,
	waiting: Map<string, string[]>,
): AssistantMessage {
	const used = new Set<string>();
	const sameModel = message.provider === model.provider && message.api === model.api && message.model === model.id;
	const content: AssistantMessage["content"] = [];
	for (const block of message.content) {
		if (block.type === "thinking") {
			if (sameModel) content.push(block);
			else if (!block.redacted && block.thinking.trim() !== "") content.push({ type: "text", text: block.thinking });
		} else if (block.type === "text") {
			if (block.text !== "") content.push(sameModel ? block : withoutSignature(block));
		} else {
			const id = uniqueToolCallId(normalize(block.id), used);
			const ids = waiting.get(block.id);
			if (ids) ids.push(id);
			else waiting.set(block.id, [id]);
			content.push({ ...(sameModel ? block : withoutSignature(block)), id, arguments: block.arguments ?? {} });
		}
	}
	// A server tool's blocks go back only to the API that made them; its citations likewise.
	if (message.api === model.api) return { ...message, content };
	const { serverBlocks: _blocks, ...rest } = message;
	return { ...rest, content: content.map((block) => (block.type === "text" && block.citations ? withoutCitations(block) : block)) };
}

function withoutCitations(block: TextContent): TextContent {
	const { citations: _citations, ...rest } = block;
	return rest;
}

function withoutSignature<T extends TextContent | ToolCall>(block: T): T {
	if (block.signature === undefined) return block;
	const { signature: _signature, ...rest } = block;
	return rest as T;
}

function convertUser(message: UserMessage, acceptsImages: boolean): UserMessage {
	if (typeof message.content === "string") return message;
	return { ...message, content: convertContent(message.content, acceptsImages) };
}

function convertContent(content: (TextContent | ImageContent)[], acceptsImages: boolean): (TextContent | ImageContent)[] {
	if (acceptsImages) return content;
	return content.map((block) => (block.type === "image" ? { type: "text", text: IMAGE_OMITTED } : block));
}

/** Longest tool call id every target accepts (OpenAI's), so an id made unique stays unique once normalized. */
const PORTABLE_ID_LENGTH = 40;

/** `id`, or when `used` has it already, `id` with a suffix (`_2`, `_3`...) that `used` has not; adds it to `used`. */
export function uniqueToolCallId(id: string, used: Set<string>): string {
	let unique = id;
	for (let n = 2; used.has(unique); n++) {
		const suffix = `_${n}`;
		unique = id.slice(0, PORTABLE_ID_LENGTH - suffix.length) + suffix;
	}
	used.add(unique);
	return unique;
}

/** Anthropic: ids match ^[a-zA-Z0-9_-]{1,64}$. */
export function normalizeAnthropicToolCallId(id: string): string {
	const cleaned = id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
	return cleaned === "" ? "toolu_empty" : cleaned;
}

/** OpenAI: ids are at most 40 characters. */
export function normalizeOpenAIToolCallId(id: string): string {
	if (id === "") return "call_empty";
	return id.length <= 40 ? id : id.slice(0, 40);
}
