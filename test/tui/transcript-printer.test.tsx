import { Text } from "ink";
import { render } from "ink-testing-library";
import { stripVTControlCharacters as strip } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { useTranscriptPrinter } from "../../src/tui/hooks/use-transcript-printer.js";
import type { TranscriptItem } from "../../src/tui/transcript/view-model.js";
import { withHighlightColours } from "./highlight-colours.js";

withHighlightColours();

interface PrinterProps {
	items: TranscriptItem[];
	print: (text: string) => void;
	leaving?: boolean;
	/** The hook under test (a fresh module's, to start without the highlighter). */
	hook?: typeof useTranscriptPrinter;
}

function Printer({ items, print, leaving = false, hook = useTranscriptPrinter }: PrinterProps) {
	hook(items, 60, false, print, [], leaving);
	return <Text>live</Text>;
}

const notice = (id: string, text: string): TranscriptItem => ({ kind: "notice", id, level: "info", text });
const answer = (id: string, text: string): TranscriptItem => ({ kind: "assistant", id, messageId: "m1", turn: 1, text });

describe("the transcript printer", () => {
	it("prints everything at once, as it is, on the screen's last render", async () => {
		vi.resetModules();
		const fresh = await import("../../src/tui/hooks/use-transcript-printer.js");
		const printed: string[] = [];
		const items = [answer("a1", "Run:\n\n```ts\nconst x = 1;\n```"), notice("n2", "after")];
		const app = render(<Printer items={items} print={(text) => printed.push(text)} leaving hook={fresh.useTranscriptPrinter} />);
		expect(strip(printed.join(""))).toMatch(/const x = 1;[\s\S]*after/);
		app.unmount();
	});

	it("prints an answer with code once the highlighter has loaded (coloured), and what follows it after it", async () => {
		const printed: string[] = [];
		const items = [notice("n1", "before"), answer("a1", "Run:\n\n```ts\nconst x = 1;\n```"), notice("n2", "after")];
		const app = render(<Printer items={items} print={(text) => printed.push(text)} />);
		// What precedes the answer is printed at once; the answer and what follows wait, in order.
		expect(strip(printed.join(""))).toContain("before");
		expect(strip(printed.join(""))).not.toContain("const x");
		await vi.waitFor(() => expect(strip(printed.join(""))).toContain("after"), { timeout: 10_000 });
		const all = printed.join("");
		expect(strip(all).indexOf("before")).toBeLessThan(strip(all).indexOf("const x = 1;"));
		expect(strip(all).indexOf("const x = 1;")).toBeLessThan(strip(all).indexOf("after"));
		// The keyword is coloured: printed text never changes, so it was printed highlighted.
		expect(all).toMatch(/\u001b\[[\d;]*mconst\u001b/);
		app.unmount();
	});
});
