import { describe, expect, it } from "vitest";
import { pickerHints, pickerRows, wrappedChoiceRows } from "../../../src/tui/dialogs/picker-rows.js";

function matches(...choices: Array<[string, string?]>) {
	return choices.map(([label, description], index) => ({ choice: { label, value: index, ...(description ? { description } : {}) }, index }));
}

describe("pickerRows", () => {
	it("lines the descriptions up after the longest label in view, and marks the highlighted row", () => {
		const rows = pickerRows({ matches: matches(["short", "a"], ["a longer label", "b"], ["mid"]), top: 0, selected: 1, choiceRows: 3, width: 40 });
		expect(rows).toEqual([
			{ index: 0, selected: false, label: "short         ", description: "  a" },
			{ index: 1, selected: true, label: "a longer label", description: "  b" },
			{ index: 2, selected: false, label: "mid", description: "" },
		]);
	});

	it("shows only the rows in view, with each choice's key, on one line without escapes", () => {
		const rows = pickerRows({ matches: matches(["yes"], ["no\u001b[31m\nway"], ["maybe"]), top: 1, selected: 2, choiceRows: 2, keys: ["y", "n", "m"], width: 40 });
		expect(rows).toEqual([
			{ index: 1, selected: false, key: "n", label: "no way", description: "" },
			{ index: 2, selected: true, key: "m", label: "maybe", description: "" },
		]);
	});

	it("fits a row inside the border, the marker and the key", () => {
		const [row] = pickerRows({ matches: matches(["a label far too long for the room", "with its description"]), top: 0, selected: 0, choiceRows: 1, keys: ["a"], width: 30 });
		expect([...row!.label].length + [...row!.description].length).toBeLessThanOrEqual(30 - 2 - 2 - 4);
	});
});

describe("pickerRows with wrap", () => {
	const rules = "bash(npm test *), bash(git status *)";

	it("wraps a description too long for its row under the description column, and leaves rows that fit alone", () => {
		const rows = pickerRows({ matches: matches(["once"], ["for this session", rules]), top: 0, selected: 0, choiceRows: 2, keys: ["1", "2"], width: 46, wrap: true });
		// Inside the border: 2 for the marker, 4 for the key, then the label column (16) and the gap.
		expect(rows[0]).toEqual({ index: 0, selected: true, key: "1", label: "once", description: "" });
		expect(rows[1]).toMatchObject({ label: "for this session", description: "  bash(npm test *)," });
		expect(rows[1]!.more).toEqual([`${" ".repeat(24)}bash(git status *)`]);
	});

	it("puts the description under the label when its column leaves too little room", () => {
		const rows = pickerRows({ matches: matches(["Deny, and say why (optional)"], ["Allow for this session", rules]), top: 0, selected: 0, choiceRows: 2, keys: ["1", "2"], width: 50, wrap: true });
		expect(rows[1]).toMatchObject({ label: "Allow for this session", description: "", more: [`${" ".repeat(6)}${rules}`] });
	});

	it("counts the rows the choices take wrapped", () => {
		const choices = [{ label: "once", value: 1 }, { label: "for this session", value: 2, description: rules }];
		expect(wrappedChoiceRows(choices, ["1", "2"], 46)).toBe(3);
		expect(wrappedChoiceRows(choices, ["1", "2"], 80)).toBe(2);
	});
});

describe("pickerHints", () => {
	it("offers the keys, the filter or the arrows, longest form first", () => {
		expect(pickerHints({ keys: ["y", "n"], filter: false, selected: 0, matches: 2, choiceRows: 2 })[0]).toBe("y/n or ↑↓ enter · esc cancel");
		expect(pickerHints({ filter: true, selected: 0, matches: 2, choiceRows: 2 })).toEqual([
			"↑↓ move · enter choose · esc cancel · type to filter",
			"↑↓ enter · esc · type to filter",
			"↑↓ enter · esc",
		]);
		expect(pickerHints({ filter: false, selected: 0, matches: 2, choiceRows: 2 })).toEqual(["↑↓ move · enter choose · esc cancel", "↑↓ enter · esc"]);
	});

	it("says where the highlight is when the list scrolls", () => {
		expect(pickerHints({ filter: true, selected: 4, matches: 40, choiceRows: 10 })[2]).toBe("5/40 · ↑↓ enter · esc");
	});
});
