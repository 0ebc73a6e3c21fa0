import { describe, expect, it } from "vitest";
import { cursorOutside, expandPastes, isLargePaste, lostPastes, newMarker, wholeMarkers } from "../../../src/tui/editor/paste-marker.js";
import { mountEditor } from "../mount-editor.js";

const ENTER = "\r";
const BACKSPACE = "\u007f";
const LEFT = "\u001b[D";
const RIGHT = "\u001b[C";
const DELETE = "\u001b[3~";
const CTRL_LEFT = "\u001b[1;5D";
const CTRL_W = "\u0017";
const ALT_BACKSPACE = "\u001b\u007f";
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

	it("expand into their pastes; a cursor inside one goes to its side, a range reaching into one takes it whole", () => {
		const pastes = [{ marker: "[pasted 12 lines]", text: "A\nB" }];
		const text = "see [pasted 12 lines] here";
		expect(expandPastes(text, pastes)).toBe("see A\nB here");
		expect(cursorOutside(text, 10, pastes, "start")).toBe(4);
		expect(cursorOutside(text, 10, pastes, "end")).toBe(21);
		expect(cursorOutside(text, 21, pastes, "start")).toBe(21);
		expect(wholeMarkers(text, { start: 20, end: 21 }, pastes)).toEqual({ start: 4, end: 21 });
		expect(wholeMarkers(text, { start: 0, end: 3 }, pastes)).toEqual({ start: 0, end: 3 });
		expect(lostPastes("see [pasted 12 line] here", pastes)).toEqual(pastes);
		expect(lostPastes(text, pastes)).toEqual([]);
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

	it("is one piece for the cursor: Left and Right jump over it, so typing never lands inside and the paste is sent whole", async () => {
		const { press, frame, sent, app } = setup();
		await press("A ", PASTE_START, lines(200), PASTE_END, " Z");
		await expect.poll(frame).toContain("› A [pasted 200 lines] Z");
		await press(LEFT, LEFT, LEFT, LEFT, LEFT, "Q");
		await expect.poll(frame).toContain("› QA [pasted 200 lines] Z");
		await press(RIGHT, RIGHT, RIGHT, "R");
		await expect.poll(frame).toContain("› QA [pasted 200 lines]R Z");
		await press(ENTER);
		expect(sent).toEqual([`QA ${lines(200)}R Z`]);
		app.unmount();
	});

	it("is one piece for word moves and for Up and Down between lines", async () => {
		const { press, frame, sent, app } = setup();
		await press("abcdefghij", "\n", PASTE_START, "x".repeat(1500), PASTE_END);
		await expect.poll(frame).toContain("[pasted 1,500 chars]");
		await press(CTRL_LEFT, "1", "\u001b[A", RIGHT, RIGHT, RIGHT, RIGHT, "2", "\u001b[B", "3");
		await expect.poll(frame).toContain("1[pasted 1,500 chars]3");
		expect(frame()).toContain("abcde2fghij");
		await press(ENTER);
		expect(sent).toEqual([`abcde2fghij\n1${"x".repeat(1500)}3`]);
		app.unmount();
	});

	it("goes whole with Delete before it, Ctrl+W and Alt+Backspace after it, and its paste with it", async () => {
		const { press, frame, sent, app } = mountEditor({ width: 100 });
		await press("a ", PASTE_START, lines(30), PASTE_END, " b ", PASTE_START, lines(40), PASTE_END, " c ", PASTE_START, lines(50), PASTE_END);
		await expect.poll(frame).toContain("› a [pasted 30 lines] b [pasted 40 lines] c [pasted 50 lines]");
		await press(CTRL_W);
		await expect.poll(frame).not.toContain("50 lines");
		expect(frame()).toContain("› a [pasted 30 lines] b [pasted 40 lines] c ");
		await press(BACKSPACE, BACKSPACE, BACKSPACE, ALT_BACKSPACE);
		await expect.poll(frame).not.toContain("40 lines");
		expect(frame()).toContain("› a [pasted 30 lines] b ");
		await press("\u0001", RIGHT, RIGHT, DELETE);
		await expect.poll(frame).not.toContain("30 lines");
		await press(ENTER);
		expect(sent).toEqual(["a  b "]);
		app.unmount();
	});
});
