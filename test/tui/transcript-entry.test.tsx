import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { TranscriptEntry } from "../../src/tui/components/TranscriptEntry.js";
import type { TranscriptItem } from "../../src/tui/view-model.js";
import { plain } from "./render-helpers.js";

function show(item: TranscriptItem, showThinking = false): string {
	const { lastFrame, unmount } = render(<TranscriptEntry item={item} width={60} showThinking={showThinking} />);
	const text = plain(lastFrame());
	unmount();
	return text;
}

describe("TranscriptEntry", () => {
	const thinking: TranscriptItem = { kind: "thinking", id: "t", messageId: "m", turn: 1, text: "First I check the file.\nThen I edit it.", redacted: false };

	it("shows thinking collapsed to one dimmed line, or in full when expanded", () => {
		expect(show(thinking).trim()).toBe("✻ Thinking · 2 lines (ctrl+t to show)");
		expect(show(thinking, true).trim()).toBe("✻ First I check the file.\nThen I edit it.");
		expect(show({ ...thinking, text: "", redacted: true }).trim()).toBe("✻ Thinking (redacted by the provider)");
	});

	it("shows a user prompt, an assistant message as markdown, and notices by level", () => {
		expect(show({ kind: "user", id: "u", text: "fix the build" }).trim()).toBe("› fix the build");
		expect(show({ kind: "assistant", id: "a", messageId: "m", turn: 1, text: "## Plan\n\n1. **read**\n2. edit\n\n" }).trim()).toBe("Plan\n\n1. read\n2. edit");
		expect(show({ kind: "notice", id: "n1", level: "error", text: "boom" }).trim()).toBe("✗ boom");
		expect(show({ kind: "notice", id: "n2", level: "warning", text: "careful" }).trim()).toBe("! careful");
		expect(show({ kind: "notice", id: "n3", level: "info", text: "fyi" }).trim()).toBe("· fyi");
	});

	it("shows a finished tool batch with each run's final state, in source order", () => {
		const text = show({
			kind: "tools",
			id: "b",
			turn: 1,
			runs: [
				{ id: "1", name: "read", status: "done", argsPreview: "a.ts", startedAt: 0, endedAt: 300, resultText: "x\ny" },
				{ id: "2", name: "bash", status: "error", argsPreview: "make", startedAt: 0, endedAt: 1200, resultText: "make: *** no rule", details: { exitCode: 2 } },
			],
		});
		expect(text.trim().split("\n")).toEqual(["✓ read a.ts 0.3s", "  read 2 lines", "✗ bash make 1.2s", "  make: *** no rule", "  exit 2"]);
	});
});
