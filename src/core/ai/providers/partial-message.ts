// The assistant message while it streams: providers add blocks and deltas, this emits the matching events.
import { Allow, parse as parsePartialJson } from "partial-json";
import type {
	AssistantMessage,
	AssistantMessageEventStream,
	Model,
	StopReason,
	TextContent,
	ThinkingContent,
	ToolCall,
	Usage,
} from "../llm-types.js";
import { emptyAssistantMessage } from "../messages.js";
import { uniqueToolCallId } from "../transform-messages.js";
import { emptyUsage, finalizeUsage } from "../messages.js";

const COUNTS = ["input", "output", "cacheRead", "cacheWrite"] as const;

/** Events the consumer may leave untaken before reading the response waits for it (a few network reads' worth). */
const MAX_UNTAKEN_EVENTS = 2048;
type UsageCounts = Partial<Pick<Usage, (typeof COUNTS)[number] | "reasoning">>;

/** A preview of streamed tool-call arguments: complete JSON, else the longest valid prefix, else `{}`. */
export function parseToolArguments(json: string): Record<string, any> {
	if (json.trim() === "") return {};
	try {
		const value = JSON.parse(json);
		return isPlainObject(value) ? value : {};
	} catch {
		try {
			const value = parsePartialJson(json, Allow.ALL);
			return isPlainObject(value) ? value : {};
		} catch {
			return {};
		}
	}
}

/**
 * Reads a tool call's arguments once they are complete: a JSON object, or the reason they are not one
 * (with the preview that partial parsing recovers, for display only).
 */
function parseCompleteToolArguments(json: string): Pick<ToolCall, "arguments" | "argumentsError"> {
	if (json.trim() === "") return { arguments: {} };
	let value: unknown;
	try {
		value = JSON.parse(json);
	} catch (error) {
		return { arguments: parseToolArguments(json), argumentsError: `not complete, valid JSON: ${(error as Error).message}` };
	}
	return isPlainObject(value) ? { arguments: value } : { arguments: {}, argumentsError: "not a JSON object" };
}

/** Adds the token counts of `from` to `to` (reasoning only where either has it). */
function addCounts(to: Usage, from: Usage): void {
	for (const key of COUNTS) to[key] += from[key];
	if (from.reasoning !== undefined) to.reasoning = (to.reasoning ?? 0) + from.reasoning;
}

function isPlainObject(value: unknown): value is Record<string, any> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

export class PartialAssistantMessage {
	readonly message: AssistantMessage;
	private readonly openBlocks = new Set<number>();
	private readonly rawArguments = new Map<number, string>();
	/** Length of the raw arguments the current preview was parsed from. */
	private readonly previewedLength = new Map<number, number>();
	/** Tool call ids given so far: a server that repeats one gets a unique one, so each result pairs with its call. */
	private readonly toolCallIds = new Set<string>();
	private finished = false;
	/**
	 * Grows whenever the message moves forward (a block, a non-empty delta, a changed usage count): what the
	 * idle timeout watches, so keep-alives and empty deltas do not count as a live answer.
	 */
	progress = 0;
	/** Usage reported by attempts that failed and were retried. */
	private readonly failedAttemptsUsage = emptyUsage();

	constructor(
		private readonly model: Model,
		private readonly stream: AssistantMessageEventStream,
	) {
		this.message = emptyAssistantMessage(model);
	}

	/** True once any content block has started: from then on a failure is not retried. */
	get hasContent(): boolean {
		return this.message.content.length > 0;
	}

	get isFinished(): boolean {
		return this.finished;
	}

	/**
	 * A promise while the stream's consumer has many events still to take (its own reader is slow), resolving once
	 * it takes them; undefined while it keeps up. Reading the response waits on it, so the events waiting in memory
	 * stay bounded and the server waits instead.
	 */
	consumerBehind(): Promise<void> | undefined {
		return this.stream.behind(MAX_UNTAKEN_EVENTS);
	}

	start(): void {
		this.stream.push({ type: "start", partial: this.message });
	}

	startText(): number {
		const index = this.addBlock({ type: "text", text: "" });
		this.stream.push({ type: "text_start", contentIndex: index, partial: this.message });
		return index;
	}

	appendText(index: number, delta: string): void {
		if (delta === "") return;
		this.progress++;
		const block = this.message.content[index] as TextContent;
		block.text += delta;
		this.stream.push({ type: "text_delta", contentIndex: index, delta, partial: this.message });
	}

	startThinking(init: Partial<ThinkingContent> = {}): number {
		const index = this.addBlock({ type: "thinking", thinking: "", ...init });
		this.stream.push({ type: "thinking_start", contentIndex: index, partial: this.message });
		return index;
	}

	appendThinking(index: number, delta: string): void {
		if (delta === "") return;
		this.progress++;
		const block = this.message.content[index] as ThinkingContent;
		block.thinking += delta;
		this.stream.push({ type: "thinking_delta", contentIndex: index, delta, partial: this.message });
	}

	appendSignature(index: number, signature: string): void {
		if (signature === "") return;
		this.progress++;
		const block = this.message.content[index] as ThinkingContent;
		block.thinkingSignature = (block.thinkingSignature ?? "") + signature;
	}

	/** Provider data for the next request to this model, set whole (see TextContent.signature). */
	setSignature(index: number, signature: string): void {
		if (signature === "") return;
		const block = this.message.content[index];
		if (!block) return;
		this.progress++;
		if (block.type === "thinking") block.thinkingSignature = signature;
		else block.signature = signature;
	}

	startToolCall(id: string, name: string): number {
		const index = this.addBlock({ type: "toolCall", id: uniqueToolCallId(id, this.toolCallIds), name, arguments: {} });
		this.rawArguments.set(index, "");
		this.stream.push({ type: "toolcall_start", contentIndex: index, partial: this.message });
		return index;
	}

	/** Late id or name (some servers send them after the first chunk). */
	patchToolCall(index: number, patch: { id?: string; name?: string }): void {
		const block = this.message.content[index] as ToolCall;
		if (patch.id && !block.id) {
			block.id = patch.id;
			this.progress++;
		}
		if (patch.name && !block.name) {
			block.name = patch.name;
			this.progress++;
		}
	}

	appendToolArguments(index: number, delta: string): void {
		if (delta === "") return;
		this.progress++;
		const raw = (this.rawArguments.get(index) ?? "") + delta;
		this.rawArguments.set(index, raw);
		// A preview for the UI while streaming; complete at toolcall_end. Parsing the whole text on every
		// delta made a long argument (a file being written) quadratic: seconds for 80 KB in small deltas.
		// So it is parsed again once the text has grown by an eighth since the last parse.
		const parsed = this.previewedLength.get(index) ?? 0;
		if (raw.length - parsed >= parsed / 8) {
			(this.message.content[index] as ToolCall).arguments = parseToolArguments(raw);
			this.previewedLength.set(index, raw.length);
		}
		this.stream.push({ type: "toolcall_delta", contentIndex: index, delta, partial: this.message });
	}

	isOpen(index: number): boolean {
		return this.openBlocks.has(index);
	}

	endBlock(index: number): void {
		if (!this.openBlocks.delete(index)) return;
		this.progress++;
		const block = this.message.content[index]!;
		if (block.type === "text") {
			this.stream.push({ type: "text_end", contentIndex: index, content: block.text, partial: this.message });
		} else if (block.type === "thinking") {
			this.stream.push({ type: "thinking_end", contentIndex: index, content: block.thinking, partial: this.message });
		} else {
			this.completeArguments(block, this.rawArguments.get(index) ?? "");
			this.rawArguments.delete(index);
			this.stream.push({ type: "toolcall_end", contentIndex: index, toolCall: block, partial: this.message });
		}
	}

	endAllBlocks(): void {
		for (const index of [...this.openBlocks].sort((a, b) => a - b)) this.endBlock(index);
	}

	setUsage(counts: UsageCounts): void {
		const usage = this.message.usage;
		for (const key of COUNTS) {
			const value = counts[key];
			if (typeof value === "number" && Number.isFinite(value) && usage[key] !== value) {
				usage[key] = value;
				this.progress++;
			}
		}
		// Part of output, so it moves neither the total nor the price; kept only where a provider reports it.
		const reasoning = counts.reasoning;
		if (typeof reasoning === "number" && Number.isFinite(reasoning) && usage.reasoning !== reasoning) {
			usage.reasoning = reasoning;
			this.progress++;
		}
		finalizeUsage(this.model, usage);
	}

	/**
	 * Before a retry nothing was shown; the failed attempt's usage is set aside. It is added back if the request
	 * fails in the end (whatever the provider reported counts); an answer that succeeds carries only its own,
	 * which is also the size of the context it was given.
	 */
	resetForRetry(): void {
		addCounts(this.failedAttemptsUsage, this.message.usage);
		this.message.usage = emptyUsage();
	}

	finish(reason: Extract<StopReason, "stop" | "length" | "toolUse">): void {
		if (this.finished) return;
		this.finished = true;
		this.endAllBlocks();
		this.message.stopReason = reason;
		finalizeUsage(this.model, this.message.usage);
		this.stream.push({ type: "done", reason, message: this.message });
		this.stream.end();
	}

	/** Ends with an error event; the partial content stays, tool-call arguments become complete objects. */
	fail(reason: Extract<StopReason, "error" | "aborted">, errorMessage: string): void {
		if (this.finished) return;
		this.finished = true;
		for (const [index, raw] of this.rawArguments) this.completeArguments(this.message.content[index] as ToolCall, raw);
		this.rawArguments.clear();
		this.openBlocks.clear();
		this.message.stopReason = reason;
		this.message.errorMessage = errorMessage;
		const usage = this.message.usage;
		addCounts(usage, this.failedAttemptsUsage);
		finalizeUsage(this.model, usage);
		this.stream.push({ type: "error", reason, error: this.message });
		this.stream.end();
	}

	private completeArguments(block: ToolCall, raw: string): void {
		const parsed = parseCompleteToolArguments(raw);
		block.arguments = parsed.arguments;
		if (parsed.argumentsError !== undefined) block.argumentsError = parsed.argumentsError;
	}

	private addBlock(block: TextContent | ThinkingContent | ToolCall): number {
		this.message.content.push(block);
		this.progress++;
		const index = this.message.content.length - 1;
		this.openBlocks.add(index);
		return index;
	}
}
