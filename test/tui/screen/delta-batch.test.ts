import { describe, expect, it } from "vitest";
import { DeltaBatch } from "../../../src/tui/screen/delta-batch.js";
import { type ScreenEvent, reduceView } from "../../../src/tui/screen/reducer.js";
import { transcriptText } from "../../../src/tui/transcript/transcript-text.js";
import { initialView, type ScreenView } from "../../../src/tui/transcript/view-model.js";
import { assistant, textDelta, thinkingDelta, update } from "../events.js";

function deltasOf(events: readonly ScreenEvent[]): string[] {
	return events.map((event) => (event.type === "message_update" && "delta" in event.assistantMessageEvent ? event.assistantMessageEvent.delta : event.type));
}

function reduceAll(events: ScreenEvent[], batched: boolean): ScreenView {
	let view = initialView();
	const batch = new DeltaBatch();
	for (const event of events) {
		for (const next of batched ? batch.add(event) : [event]) view = reduceView(view, next, 0);
	}
	for (const next of batch.take()) view = reduceView(view, next, 0);
	return view;
}

describe("DeltaBatch", () => {
	it("joins consecutive deltas of one kind and block, and lets every other event through in order", () => {
		const batch = new DeltaBatch();
		expect(batch.add(textDelta("a"))).toEqual([]);
		expect(batch.add(textDelta("b"))).toEqual([]);
		// Another block: the batch so far comes out joined.
		expect(deltasOf(batch.add(textDelta("c", 1)))).toEqual(["ab"]);
		expect(deltasOf(batch.add(thinkingDelta("t", 1)))).toEqual(["c"]);
		expect(deltasOf(batch.add({ type: "turn_end", message: assistant(""), toolResults: [] }))).toEqual(["t", "turn_end"]);
		expect(batch.take()).toEqual([]);
		const single = textDelta("only");
		batch.add(single);
		expect(batch.take()).toEqual([single]);
	});

	it("reduces a stream to the same text as delta by delta: same transcript printed, same live tail", () => {
		const text = Array.from({ length: 40 }, (_, i) =>
			i % 4 === 3 ? "```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n" : i % 4 === 2 ? "- one\n- two\n\n" : `Paragraph ${i} with **bold** text.\n\n`,
		).join("") + "The unfinished end";
		const deltas: string[] = [];
		for (let i = 0; i < text.length; i += 3) deltas.push(text.slice(i, i + 3));
		const events: ScreenEvent[] = [
			{ type: "message_start", message: assistant([]) },
			update({ type: "thinking_start", contentIndex: 0, partial: assistant([]) }),
			thinkingDelta("Let me think."),
			thinkingDelta(" Done."),
			update({ type: "text_start", contentIndex: 1, partial: assistant([]) }),
			...deltas.map((delta) => textDelta(delta, 1)),
		];
		const one = reduceAll(events, false);
		const joined = reduceAll(events, true);
		expect(joined.activeAssistant?.tail).toBe(one.activeAssistant?.tail);
		expect(joined.activeAssistant?.committedText).toBe(one.activeAssistant?.committedText);
		expect(transcriptText(joined.transcript, 80, true)).toBe(transcriptText(one.transcript, 80, true));
		expect(joined.transcript.length).toBeLessThan(one.transcript.length);
	});
});
