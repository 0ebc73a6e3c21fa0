// The todo list above the editor: shown while a run goes on, the current item highlighted and done ones checked,
// folded with Ctrl+X, gone when the run ends.
import { describe, expect, it } from "vitest";
import { FakeSession } from "./fake-session.js";
import { mount } from "./mount-app.js";

const CTRL_X = "\x18";

describe("the todo list on the screen", () => {
	it("shows the list during a run, folds it with Ctrl+X, and hides it when the run ends", async () => {
		const session = new FakeSession();
		const screen = mount(session);
		await screen.until((f) => f.includes("ready"));
		await session.emit({ type: "run_start" });
		await session.emit({
			type: "todo_changed",
			items: [
				{ text: "Read the parser", status: "done" },
				{ text: "Fix the tokenizer", status: "in_progress" },
				{ text: "Run the tests", status: "pending" },
			],
		});
		let frame = await screen.until((f) => f.includes("Todo 1/3 done"));
		expect(frame).toContain("✓ Read the parser");
		expect(frame).toContain("▶ Fix the tokenizer");
		expect(frame).toContain("○ Run the tests");

		await screen.type(CTRL_X);
		frame = await screen.until((f) => f.includes("now: Fix the tokenizer"));
		expect(frame).not.toContain("○ Run the tests");

		await session.emit({ type: "run_end", status: "done" });
		frame = await screen.until((f) => !f.includes("Todo 1/3"));
		expect(frame).not.toContain("Fix the tokenizer");
	});
});
