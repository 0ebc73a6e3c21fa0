// Assistant message timeline: message_start/update/end of role "assistant".
// Deltas grow the live text; finished paragraphs move to the transcript; message_end is authoritative.
import type { AssistantMessage, AssistantMessageEvent } from "../../core/index.js";
import { messageSearch, textFromContent } from "../../core/index.js";
import { thinkingFromContent } from "../transcript/index.js";
import { splitFinished } from "../text/index.js";
import type { ActiveAssistant, NewTranscriptItem as NewItem, ScreenView, TranscriptItem } from "../transcript/index.js";

/** Appends items to the transcript, giving each the next id. */
export function appendItems(view: ScreenView, items: NewItem[]): ScreenView {
	if (items.length === 0) return view;
	let nextId = view.nextId;
	const added = items.map((item) => ({ ...item, id: `${item.kind}-${nextId++}` }) as TranscriptItem);
	return { ...view, transcript: [...view.transcript, ...added], nextId };
}

function newActive(view: ScreenView): { view: ScreenView; active: ActiveAssistant } {
	const active: ActiveAssistant = {
		messageId: `m${view.nextId}`,
		turn: view.turn,
		thinking: "",
		thinkingSeen: false,
		committedText: "",
		tail: "",
		scanned: 0,
		textBlocks: 0,
	};
	return { view: { ...view, nextId: view.nextId + 1 }, active };
}

export function startAssistant(view: ScreenView): ScreenView {
	const started = newActive(view);
	return { ...started.view, activeAssistant: started.active };
}

function thinkingItem(active: ActiveAssistant, text: string, redacted: boolean): NewItem[] {
	if (text.trim() === "" && !redacted) return [];
	return [{ kind: "thinking", messageId: active.messageId, turn: active.turn, text, redacted }];
}

/** A blank first line: the text is apart from what came before it. */
const BLANK_START = /^[ \t]*\n/;

/** `after`: whether an item was added right before this one (then it is apart from the last chunk). */
function textItem(active: ActiveAssistant, text: string, after = false): NewItem[] {
	if (text.trim() === "") return [];
	const continues = active.continues === true && !after && !BLANK_START.test(text);
	return [{ kind: "assistant", messageId: active.messageId, turn: active.turn, text, ...(continues ? { continues } : {}) }];
}

function appendText(view: ScreenView, active: ActiveAssistant, delta: string): ScreenView {
	// Without a line break nothing can finish, and the scan position stays where it is: the common case
	// (a delta of a few characters) is just a longer tail.
	if (!delta.includes("\n")) return { ...view, activeAssistant: { ...active, tail: active.tail + delta } };
	const split = splitFinished({ tail: active.tail + delta, scanned: active.scanned, openFence: active.openFence, fenceIndented: active.fenceIndented });
	const next: ActiveAssistant = { ...active, tail: split.tail, scanned: split.scanned, openFence: split.openFence, fenceIndented: split.fenceIndented };
	if (split.finished === "") return { ...view, activeAssistant: next };
	// Thinking precedes the text it led to, so it leaves first.
	const thinking = thinkingItem(active, active.thinking, false);
	const items = [...thinking, ...textItem(active, split.finished, thinking.length > 0)];
	next.continues = split.continues;
	next.thinking = "";
	next.committedText = active.committedText + split.finished;
	return appendItems({ ...view, activeAssistant: next }, items);
}

export function updateAssistant(view: ScreenView, event: AssistantMessageEvent): ScreenView {
	let current = view;
	let active = view.activeAssistant;
	if (!active) {
		const started = newActive(view);
		current = started.view;
		active = started.active;
	}
	switch (event.type) {
		case "thinking_start":
			return { ...current, activeAssistant: { ...active, thinking: active.thinking === "" ? "" : `${active.thinking}\n`, thinkingSeen: true } };
		case "thinking_delta":
			return { ...current, activeAssistant: { ...active, thinking: active.thinking + event.delta, thinkingSeen: true } };
		case "text_start":
			if (active.textBlocks === 0) return { ...current, activeAssistant: { ...active, textBlocks: 1 } };
			return appendText(current, { ...active, textBlocks: active.textBlocks + 1 }, "\n");
		case "text_delta":
			return appendText(current, active.textBlocks === 0 ? { ...active, textBlocks: 1 } : active, event.delta);
		case "toolcall_start": {
			const block = event.partial.content[event.contentIndex];
			const name = block && block.type === "toolCall" && typeof block.name === "string" ? block.name : "tool";
			return { ...current, activeAssistant: { ...active, pendingToolCall: { name, chars: 0 } } };
		}
		case "toolcall_delta": {
			const pending = active.pendingToolCall ?? { name: "tool", chars: 0 };
			return { ...current, activeAssistant: { ...active, pendingToolCall: { ...pending, chars: pending.chars + event.delta.length } } };
		}
		case "toolcall_end":
			return { ...current, activeAssistant: { ...active, pendingToolCall: undefined } };
		default:
			return current === view ? view : { ...current, activeAssistant: active };
	}
}

/** The part of the final text not yet in the transcript. The final message wins when nothing was streamed. */
function remainingText(active: ActiveAssistant, finalText: string): string {
	if (active.committedText === "") return finalText;
	if (finalText.startsWith(active.committedText)) return finalText.slice(active.committedText.length);
	return active.tail;
}

function sourcesItem(message: AssistantMessage): NewItem[] {
	const search = messageSearch(message);
	return search ? [{ kind: "sources", search }] : [];
}

function stopNotice(message: AssistantMessage): NewItem[] {
	switch (message.stopReason) {
		case "error":
			return [{ kind: "notice", level: "error", text: message.errorMessage || "The model request failed." }];
		case "aborted":
			return [{ kind: "notice", level: "warning", text: "Interrupted." }];
		case "length":
			return [{ kind: "notice", level: "warning", text: "The answer was cut off at the output token limit: say \"continue\" for the rest." }];
		default:
			return [];
	}
}

export function endAssistant(view: ScreenView, message: AssistantMessage): ScreenView {
	let current = view;
	let active = view.activeAssistant;
	if (!active) {
		const started = newActive(view);
		current = started.view;
		active = started.active;
	}
	const finalThinking = thinkingFromContent(message.content);
	const thinking = active.thinkingSeen ? active.thinking : finalThinking.text;
	const thinkingItems = thinkingItem(active, thinking, finalThinking.redacted && thinking === "");
	const items = [
		...thinkingItems,
		...textItem(active, remainingText(active, textFromContent(message.content)), thinkingItems.length > 0),
		...sourcesItem(message),
		...stopNotice(message),
	];
	const usage = message.usage;
	const next: ScreenView = { ...current, activeAssistant: undefined };
	if (usage && typeof usage.input === "number") {
		next.usage = {
			input: current.usage.input + (usage.input || 0),
			output: current.usage.output + (usage.output || 0),
			cacheRead: current.usage.cacheRead + (usage.cacheRead || 0),
			cacheWrite: current.usage.cacheWrite + (usage.cacheWrite || 0),
			cost: current.usage.cost + (usage.cost?.total || 0),
		};
		const contextTokens = (usage.input || 0) + (usage.output || 0) + (usage.cacheRead || 0) + (usage.cacheWrite || 0);
		if (contextTokens > 0) next.contextTokens = contextTokens;
	}
	return appendItems(next, items);
}

/** A run ended without message_end (should not happen): keep what was streamed rather than lose it. */
export function flushAssistant(view: ScreenView): ScreenView {
	const active = view.activeAssistant;
	if (!active) return view;
	const thinking = thinkingItem(active, active.thinking, false);
	const items = [...thinking, ...textItem(active, active.tail, thinking.length > 0)];
	return appendItems({ ...view, activeAssistant: undefined }, items);
}
