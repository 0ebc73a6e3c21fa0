import { describe, expect, it } from "vitest";
import { assistant, streamedAssistant } from "../events.js";
import { FakeSession, gate } from "../fake-session.js";
import { mount } from "../mount-app.js";

const ENTER = "\r";
const ESC = "\u001b";
const DOWN = "\u001b[B";

const colours = [
	{ label: "red", value: "r" },
	{ label: "green", value: "g" },
	{ label: "blue", value: "b" },
];

describe("the screen's dialogs", () => {
	it("installs itself as the session's UI while mounted and puts the previous one back after", async () => {
		const session = new FakeSession();
		const before = session.ui;
		const screen = mount(session);
		await screen.until((f) => f.includes("Ask loom"));
		expect(session.ui).not.toBe(before);
		expect(session.ui.interactive).toBe(true);
		const open = session.ui.confirm("Still there?");
		screen.unmount();
		expect(await open).toBe(false);
		expect(session.ui).toBe(before);
	});

	it("is not interactive without a keyboard: questions get no answer at once", async () => {
		const session = new FakeSession();
		const screen = mount(session, { inputActive: false });
		await screen.until((f) => f.includes("needs a terminal"));
		expect(session.ui.interactive).toBe(false);
		expect(await session.ui.select({ title: "Pick" }, colours)).toBeUndefined();
	});

	it("shows a dialog in place of the editor, takes the keys, and gives the editor back with its draft", async () => {
		const session = new FakeSession();
		const screen = mount(session);
		await screen.type("my draft");
		await screen.until((f) => f.includes("› my draft"));
		const answer = session.ui.select({ title: "Pick a colour", filter: true }, colours);
		let frame = await screen.until((f) => f.includes("Pick a colour"));
		expect(frame).not.toContain("my draft");
		expect(frame).toContain("test/test-model");
		await screen.type("gre");
		frame = await screen.until((f) => f.includes("filter: gre"));
		await screen.type(ENTER);
		expect(await answer).toBe("g");
		frame = await screen.until((f) => f.includes("› my draft"));
		expect(frame).not.toContain("Pick a colour");
		expect(frame).not.toContain("gre");
		expect(session.calls.prompts).toEqual([]);
	});

	it("Esc in a dialog during a run dismisses the dialog and does not interrupt the run", async () => {
		const release = gate();
		const session = new FakeSession(() => [...streamedAssistant(["Working on it"]), () => release.promise, { type: "message_end", message: assistant("done") }]);
		const screen = mount(session);
		await screen.type("go", ENTER);
		await screen.until((f) => f.includes("Working on it"));
		const answer = session.ui.confirm("Allow this?");
		await screen.until((f) => f.includes("Allow this?"));
		await screen.type(ESC);
		expect(await answer).toBe(false);
		await screen.until((f) => !f.includes("Allow this?"));
		expect(session.calls.aborts).toBe(0);
		release.open();
		await screen.until((f) => f.includes("ready"));
	});

	it("hands commands the dialogs as ctx.ui", async () => {
		const session = new FakeSession();
		session.commands.register({
			name: "colour",
			description: "pick a colour",
			async handler(_args, ctx) {
				const picked = await ctx.ui?.select({ title: "Which colour?" }, colours);
				ctx.notify("info", `picked ${picked}`);
			},
		});
		const screen = mount(session);
		await screen.type("/colour", ENTER);
		await screen.until((f) => f.includes("Which colour?"));
		await screen.type(DOWN, DOWN, ENTER);
		await screen.until((f) => f.includes("picked b"));
	});

	it("keeps the whole screen shorter than the terminal, however long the dialog's body", async () => {
		const session = new FakeSession();
		const screen = mount(session, { rows: 20, columns: 60 });
		await screen.until((f) => f.includes("Ask loom"));
		const body = Array.from({ length: 100 }, (_, i) => ({ text: `line ${i + 1}`, style: "plain" as const }));
		void session.ui.select({ title: "Long one", body }, colours);
		const frame = await screen.until((f) => f.includes("Long one") && f.includes("more lines"));
		expect(frame.split("\n").length).toBeLessThan(20);
		expect(frame).toContain("red");
	});
});
