import { describe, expect, it } from "vitest";
import { assistant } from "./events.js";
import { FakeSession } from "./fake-session.js";
import { mount } from "./mount-app.js";

const ENTER = "\r";
const CTRL_T = "\u0014";

describe("Ctrl+T", () => {
	it("prints the whole transcript again with every thinking block in full, or collapsed, and says which", async () => {
		const session = new FakeSession((text) => [
			{ type: "message_end", message: assistant([{ type: "thinking", thinking: `Thinking about ${text}.\nSecond line for ${text}.` }, { type: "text", text: `Answer to ${text}.` }]) },
		]);
		const screen = mount(session);
		await screen.type("first", ENTER);
		await screen.until((f) => f.includes("Answer to first.") && f.includes("ready"));
		await screen.type("second", ENTER);
		let frame = await screen.until((f) => f.includes("Answer to second.") && f.includes("ready"));
		expect(frame.match(/✻ Thinking · 2 lines \(ctrl\+t to show\)/g)).toHaveLength(2);

		await screen.type(CTRL_T);
		frame = await screen.until((f) => f.includes("Thinking shown in full"));
		expect(frame).toMatch(/› first\n\n✻ Thinking about first\.\nSecond line for first\.\n\nAnswer to first\.\n\n› second\n\n✻ Thinking about second\.\nSecond line for second\.\n\nAnswer to second\./);
		expect(frame).not.toContain("ctrl+t to show");

		await screen.type(CTRL_T);
		frame = await screen.until((f) => f.includes("Thinking hidden"));
		expect(frame.match(/✻ Thinking · 2 lines \(ctrl\+t to show\)/g)).toHaveLength(2);
		expect(frame).not.toContain("Thinking about first");
		// The reprint drops the previous toggle's line, which no longer holds: one line says how thinking shows.
		expect(frame).not.toContain("Thinking shown in full");
		expect(frame.match(/Thinking hidden, one line each/g)).toHaveLength(1);

		await screen.type(CTRL_T);
		frame = await screen.until((f) => f.includes("Thinking shown in full"));
		expect(frame).not.toContain("Thinking hidden");
		expect(frame.match(/Thinking shown in full/g)).toHaveLength(1);
	});
});
