// Makes a conversation safe to send to a given model, whatever produced it:
// - errored or aborted assistant messages are dropped (their partial content would confuse the model);
// - every tool call gets a result (a synthetic error one when none was recorded), orphan results go;
// - thinking from another provider/model becomes plain text (signatures are only valid where issued);
// - images become a short note when the model does not accept them;
// - tool call ids are made acceptable to the target API (pairs stay matched).
import type {
	AssistantMessage,
	ImageContent,
	Message,
	Model,
	TextContent,
	ToolCall,
	ToolResultMessage,
	UserMessage,
} from "../llm-types.js";

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
		answered.clear();
	};

	for (const message of messages) {
		if (message.role === "assistant") {
			if (message.stopReason === "error" || message.stopReason === "aborted") continue;
			flushPending();
			const converted = convertAssistant(message, model, normalize);
			if (converted.content.length === 0) continue;
			out.push(converted);
			pending = converted.content.filter((block): block is ToolCall => block.type === "toolCall");
		} else if (message.role === "toolResult") {
			const id = normalize(message.toolCallId);
			// A result without its call (e.g. the call's message errored) would be rejected by the API.
			if (!pending.some((call) => call.id === id) || answered.has(id)) continue;
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

function convertAssistant(message: AssistantMessage, model: Model, normalize: (id: string) => string): AssistantMessage {
	const sameModel = message.provider === model.provider && message.api === model.api && message.model === model.id;
	const content: AssistantMessage["content"] = [];
	for (const block of message.content) {
		if (block.type === "thinking") {
			if (sameModel) content.push(block);
			else if (!block.redacted && block.thinking.trim() !== "") content.push({ type: "text", text: block.thinking });
		} else if (block.type === "text") {
			if (block.text !== "") content.push(block);
		} else {
			content.push({ ...block, id: normalize(block.id), arguments: block.arguments ?? {} });
		}
	}
	return { ...message, content };
}

function convertUser(message: UserMessage, acceptsImages: boolean): UserMessage {
	if (typeof message.content === "string") return message;
	return { ...message, content: convertContent(message.content, acceptsImages) };
}

function convertContent(content: (TextContent | ImageContent)[], acceptsImages: boolean): (TextContent | ImageContent)[] {
	if (acceptsImages) return content;
	return content.map((block) => (block.type === "image" ? { type: "text", text: IMAGE_OMITTED } : block));
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
