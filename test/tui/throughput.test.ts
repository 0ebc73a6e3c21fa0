import { describe, expect, it } from "vitest";
import { streamingRows } from "../../src/tui/screen/live-rows.js";
import { renderMarkdown } from "../../src/tui/text/markdown.js";
import { reduceView } from "../../src/tui/screen/reducer.js";
import { initialView } from "../../src/tui/transcript/view-model.js";
import { assistant, textDelta } from "./events.js";

/** ~20,000 tokens of a realistic answer: prose paragraphs, lists and code blocks, as 4-character deltas. */
function longAnswer(): string[] {
	const blocks: string[] = [];
	for (let i = 0; blocks.join("").length < 80_000; i++) {
		if (i % 5 === 4) blocks.push(`\`\`\`ts\n${Array.from({ length: 12 }, (_, j) => `const value${j} = compute(${j}, "${i}");`).join("\n")}\n\`\`\`\n\n`);
		else if (i % 5 === 2) blocks.push(`${Array.from({ length: 6 }, (_, j) => `- item ${j} with **bold** and \`code\``).join("\n")}\n\n`);
		else blocks.push(`${"This paragraph explains one step of the change in some detail, with *emphasis*. ".repeat(6)}\n\n`);
	}
	const text = blocks.join("");
	const deltas: string[] = [];
	for (let i = 0; i < text.length; i += 4) deltas.push(text.slice(i, i + 4));
	return deltas;
}

describe("throughput", () => {
	it("reduces and renders a 20,000-token answer well within its 10 s of streaming at 2,000 tokens/s", () => {
		const deltas = longAnswer();
		expect(deltas.length).toBeGreaterThanOrEqual(20_000);
		const cpuBefore = process.cpuUsage();
		let view = reduceView(initialView(), { type: "message_start", message: assistant([]) }, 0);
		let frames = 0;
		let printed = 0;
		for (let i = 0; i < deltas.length; i++) {
			view = reduceView(view, textDelta(deltas[i]), i);
			// The screen renders at most ~30 times a second: at 2,000 tokens/s that is every ~66 deltas.
			if (i % 66 === 0) {
				frames++;
				streamingRows(view.activeAssistant?.tail ?? "", 100, 30);
				for (; printed < view.transcript.length; printed++) {
					const item = view.transcript[printed];
					if (item.kind === "assistant") renderMarkdown(item.text, 100);
				}
			}
		}
		view = reduceView(view, { type: "message_end", message: assistant(deltas.join("")) }, deltas.length);
		const cpu = process.cpuUsage(cpuBefore);
		const cpuMs = (cpu.user + cpu.system) / 1000;
		// The live tail stays small because finished paragraphs leave it.
		expect(view.transcript.filter((item) => item.kind === "assistant").map((item) => (item.kind === "assistant" ? item.text : "")).join("")).toBe(deltas.join(""));
		expect(frames).toBeGreaterThan(300);
		// 10 s of stream; staying under half of one core leaves room for Ink and the provider.
		expect(cpuMs).toBeLessThan(5000);
	});
});
