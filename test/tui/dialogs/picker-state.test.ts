import { describe, expect, it } from "vitest";
import type { DialogKey } from "../../../src/tui/dialogs/dialog-keys.js";
import { MAX_CHOICE_ROWS, pickerLayout, textBlockLayout } from "../../../src/tui/dialogs/dialog-layout.js";
import { type PickerState, choiceKeys, initialPicker, matchingChoices, pickerStep } from "../../../src/tui/dialogs/picker-state.js";

function run(state: PickerState, keys: DialogKey[], count: number, rows = 5, filter = false): PickerState {
	for (const key of keys) {
		const outcome = pickerStep(state, key, count, rows, filter);
		if (outcome.type !== "state") throw new Error(`unexpected ${outcome.type}`);
		state = outcome.state;
	}
	return state;
}

const up: DialogKey = { type: "up" };
const down: DialogKey = { type: "down" };

describe("picker state", () => {
	it("moves with the arrows, wrapping around at both ends, and scrolls to keep the selection in view", () => {
		const start = initialPicker(undefined, 20, 5);
		expect(run(start, [down, down], 20)).toMatchObject({ selected: 2, top: 0 });
		expect(run(start, [up], 20)).toMatchObject({ selected: 19, top: 15 });
		expect(run(start, [up, down], 20)).toMatchObject({ selected: 0, top: 0 });
		expect(run(start, [down, down, down, down, down, down], 20)).toMatchObject({ selected: 6, top: 2 });
	});

	it("moves a page with PageUp/PageDown and to the ends with Home/End, without wrapping", () => {
		const start = initialPicker(undefined, 12, 5);
		expect(run(start, [{ type: "pageDown" }], 12)).toMatchObject({ selected: 5, top: 1 });
		expect(run(start, [{ type: "pageDown" }, { type: "pageDown" }, { type: "pageDown" }], 12)).toMatchObject({ selected: 11, top: 7 });
		expect(run(start, [{ type: "pageUp" }], 12)).toMatchObject({ selected: 0 });
		expect(run(start, [{ type: "end" }], 12)).toMatchObject({ selected: 11, top: 7 });
		expect(run(start, [{ type: "end" }, { type: "home" }], 12)).toMatchObject({ selected: 0, top: 0 });
	});

	it("starts on the initial index, in view", () => {
		expect(initialPicker(8, 10, 5)).toEqual({ query: "", selected: 8, top: 4 });
		expect(initialPicker(99, 3, 5)).toMatchObject({ selected: 2 });
	});

	it("chooses the highlighted match with Enter and dismisses with Esc; Enter with no match does nothing", () => {
		const state = run(initialPicker(undefined, 4, 5), [down], 4);
		expect(pickerStep(state, { type: "enter" }, 4, 5, false)).toEqual({ type: "choose", index: 1 });
		expect(pickerStep(state, { type: "dismiss" }, 4, 5, false)).toEqual({ type: "dismiss" });
		expect(pickerStep(initialPicker(undefined, 0, 5), { type: "enter" }, 0, 5, true)).toMatchObject({ type: "state" });
	});

	it("filters only when asked: typing narrows and restarts at the top, Backspace and Ctrl+U widen", () => {
		const moved = run(initialPicker(undefined, 9, 5), [down, down], 9);
		expect(run(moved, [{ type: "text", text: "so" }], 9, 5, true)).toEqual({ query: "so", selected: 0, top: 0 });
		expect(run(moved, [{ type: "text", text: "so" }], 9, 5, false)).toBe(moved);
		expect(run(moved, [{ type: "text", text: "son" }, { type: "backspace" }], 9, 5, true)).toMatchObject({ query: "so" });
		expect(run(moved, [{ type: "text", text: "son" }, { type: "clear" }], 9, 5, true)).toMatchObject({ query: "" });
	});

	it("gives each choice of a short list a key: its first letter when no two share one, else its number", () => {
		expect(choiceKeys(["Yes, trust this folder", "No, do not run it"])).toEqual(["y", "n"]);
		expect(choiceKeys(["Restore files and conversation", "Conversation only", "Files only"])).toEqual(["r", "c", "f"]);
		expect(choiceKeys(["Allow once", "Allow for this session", "Deny"])).toEqual(["1", "2", "3"]);
		expect(choiceKeys(["/tmp", "other"])).toEqual(["1", "2"]);
		expect(choiceKeys(Array.from({ length: 9 }, (_, i) => `same ${i}`))).toHaveLength(9);
		// More than nine that share letters: no key fits each, the arrows alone choose.
		expect(choiceKeys(Array.from({ length: 10 }, (_, i) => `same ${i}`))).toBeUndefined();
	});

	it("chooses at once on a choice's key, whichever is highlighted; without a filter other letters do nothing", () => {
		const keys = ["r", "c", "f"];
		const start = initialPicker(undefined, 3, 5);
		expect(pickerStep(start, { type: "text", text: "c" }, 3, 5, false, keys)).toEqual({ type: "choose", index: 1 });
		expect(pickerStep(start, { type: "text", text: "F" }, 3, 5, false, keys)).toEqual({ type: "choose", index: 2 });
		expect(pickerStep(start, { type: "text", text: "x" }, 3, 5, false, keys)).toEqual({ type: "state", state: start });
		// Text typed ahead in one chunk is not a key press.
		expect(pickerStep(start, { type: "text", text: "cf" }, 3, 5, false, keys)).toEqual({ type: "state", state: start });
	});

	it("matches the query fuzzily against label and description, best first, keeping each choice's index", () => {
		const choices = [
			{ label: "claude-opus-4", value: "a", description: "anthropic" },
			{ label: "gpt-5", value: "b", description: "openai" },
			{ label: "claude-sonnet-4", value: "c", description: "anthropic" },
			{ label: "gemini-2.5-pro", value: "d", description: "google" },
		];
		expect(matchingChoices(choices, "").map((m) => m.index)).toEqual([0, 1, 2, 3]);
		expect(matchingChoices(choices, "sonnet").map((m) => m.choice.value)).toEqual(["c"]);
		expect(matchingChoices(choices, "openai").map((m) => m.choice.value)).toEqual(["b"]);
		expect(matchingChoices(choices, "cl 4").map((m) => m.index)).toEqual([0, 2]);
		expect(matchingChoices(choices, "xyz")).toEqual([]);
	});
});

describe("dialog layout", () => {
	it("never makes a picker taller than its rows, whatever the body and the number of choices", () => {
		for (const maxRows of [7, 8, 10, 15, 24, 40]) {
			for (const bodyLines of [0, 1, 5, 30, 500]) {
				for (const choices of [0, 1, 3, 10, 200]) {
					for (const [filter, wrappedRows] of [[false, undefined], [true, undefined], [false, choices * 3]] as const) {
						const layout = pickerLayout({ maxRows, bodyLines, choices, filter, ...(wrappedRows === undefined ? {} : { wrappedRows }) });
						expect(layout.height, `${maxRows} rows, body ${bodyLines}, ${choices} choices, wrapped ${wrappedRows}`).toBeLessThanOrEqual(maxRows);
						expect(layout.choiceRows).toBeGreaterThanOrEqual(1);
						expect(layout.bodyRows + layout.bodyHidden).toBe(bodyLines);
					}
				}
			}
		}
	});

	it("shows at most ten choices at once, gives the rest to the body, and keeps a few body lines beside many choices", () => {
		expect(pickerLayout({ maxRows: 40, bodyLines: 0, choices: 200, filter: true }).choiceRows).toBe(MAX_CHOICE_ROWS);
		expect(pickerLayout({ maxRows: 40, bodyLines: 100, choices: 3, filter: false })).toMatchObject({ choiceRows: 3, bodyRows: 31, bodyHidden: 69 });
		expect(pickerLayout({ maxRows: 12, bodyLines: 100, choices: 50, filter: false })).toMatchObject({ choiceRows: 4, bodyRows: 2 });
		expect(pickerLayout({ maxRows: 40, bodyLines: 4, choices: 3, filter: false })).toMatchObject({ bodyRows: 4, bodyHidden: 0, height: 12 });
	});

	it("gives a short list the rows its wrapped descriptions take when they are there, else one row per choice", () => {
		expect(pickerLayout({ maxRows: 20, bodyLines: 1, choices: 3, filter: false, wrappedRows: 5 })).toMatchObject({ wrapChoices: true, choiceRows: 5, bodyRows: 1, height: 11 });
		// Just enough: the body's row beside the wrapped choices.
		expect(pickerLayout({ maxRows: 11, bodyLines: 1, choices: 3, filter: false, wrappedRows: 5 })).toMatchObject({ wrapChoices: true, choiceRows: 5, height: 11 });
		expect(pickerLayout({ maxRows: 10, bodyLines: 1, choices: 3, filter: false, wrappedRows: 5 })).toMatchObject({ wrapChoices: false, choiceRows: 3, bodyRows: 1 });
		// A list that scrolls or filters never wraps.
		expect(pickerLayout({ maxRows: 40, bodyLines: 0, choices: 12, filter: false, wrappedRows: 14 })).toMatchObject({ wrapChoices: false, choiceRows: MAX_CHOICE_ROWS });
		expect(pickerLayout({ maxRows: 40, bodyLines: 0, choices: 3, filter: true, wrappedRows: 5 })).toMatchObject({ wrapChoices: false, choiceRows: 3 });
	});

	it("never makes a confirmation taller than its rows", () => {
		for (const maxRows of [5, 6, 7, 10, 30]) {
			for (const lines of [0, 1, 4, 100]) expect(textBlockLayout({ maxRows, lines, fixed: 1 }).height).toBeLessThanOrEqual(maxRows);
		}
	});

	it("cuts a long message to the rows left, saying how many were left out", () => {
		expect(textBlockLayout({ maxRows: 10, lines: 50, fixed: 1 })).toMatchObject({ shown: 3, hidden: 47, height: 10 });
		expect(textBlockLayout({ maxRows: 10, lines: 2, fixed: 1 })).toMatchObject({ shown: 2, hidden: 0, height: 8 });
	});
});
