import { describe, expect, it } from "vitest";
import { expandPastes, isLargePaste, markerAt, newMarker } from "../../src/tui/paste-marker.js";
import { mountEditor } from "./mount-editor.js";

const ENTER = "\r";
const BACKSPACE = "\u007f";
const LEFT = "\u001b[D";
const PASTE_START = "\u001b[200~";
const PASTE_END = "\u001b[201~";

const setup = () => mountEditor();

const lines = (n: number, word = "line") => Array.from({ length: n }, (_, i) => `${word} ${i + 1}`).join("\n");

describe("paste markers", () => {
	it("stand for a paste of 10 lines or 1,000 characters; smaller ones go in as text", () => {
		expect(isLargePaste(lines(9))).toBe(false);
		expect(isLargePaste(lines(10))).toBe(true);
		expect(isLargePaste("x".repeat(999))).toBe(false);
		expect(isLargePaste("x".repeat(1000))).toBe(true);
		expect(newMarker(lines(200), [])).toBe("[pasted 200 lines]");
		expect(newMarker("x".repeat(1500), [])).toBe("[pasted 1,500 chars]");
		expect(newMarker(lines(200), [{ marker: "[pasted 200 lines]", text: "" }])).toBe("[pasted 200 lines #2]");
	});

	it("expand into their pastes, and are found next to the cursor", () => {
		const pastes = [{ marker: "[pasted 12 lines]", text: "A\nB" }];
		expect(expandPastes("see [pasted 12 lines] here", pastes)).toBe("see A\nB here");
		expect(markerAt("see [pasted 12 lines] here", 21, pastes, "before")).toEqual({ start: 4, end: 21 });
		expect(markerAt("see [pasted 12 lines] here", 4, pastes, "after")).toEqual({ start: 4, end: 21 });
		expect(markerAt("see [pasted 12 lines] here", 20, pastes, "before")).toBeUndefined();
	});

	it("shows a 200-line paste as one marker among typed text, and sends the paste whole in its place", async () => {
		const { press, frame, sent, app } = setup();
		await press("look at ", PASTE_START, lines(200).replace(/\n/g, "\r"), PASTE_END, " please");
		await expect.poll(frame).toContain("› look at [pasted 200 lines] please");
		expect(frame()).not.toContain("line 17");
		await press(ENTER);
		expect(sent).toEqual([`look at ${lines(200)} please`]);
		app.unmount();
	});

	it("deletes the whole marker, and the paste, with one Backspace", async () => {
		const { press, frame, sent, app } = setup();
		await press("a ", PASTE_START, lines(50), PASTE_END);
		await expect.poll(frame).toContain("› a [pasted 50 lines]");
		await press(BACKSPACE);
		await expect.poll(frame).not.toContain("pasted");
		expect(frame()).toContain("› a ");
		await press("b", ENTER);
		expect(sent).toEqual(["a b"]);
		app.unmount();
	});

	it("keeps each of two pastes apart, and a small paste as text", async () => {
		const { press, frame, sent, app } = setup();
		await press(PASTE_START, lines(20, "one"), PASTE_END, " ", PASTE_START, lines(20, "two"), PASTE_END, " ", PASTE_START, "short", PASTE_END);
		await expect.poll(frame).toContain("› [pasted 20 lines] [pasted 20 lines #2] short");
		await press(ENTER);
		expect(sent).toEqual([`${lines(20, "one")} ${lines(20, "two")} short`]);
		app.unmount();
	});

	it("a marker edited by hand is text: only intact markers expand", async () => {
		const { press, frame, sent, app } = setup();
		await press(PASTE_START, lines(30), PASTE_END);
		await expect.poll(frame).toContain("[pasted 30 lines]");
		await press(LEFT, BACKSPACE, ENTER);
		expect(sent).toEqual(["[pasted 30 line]"]);
		app.unmount();
	});
});
