import { describe, expect, it } from "vitest";
import * as edit from "../../../src/tui/editor/editor-state.js";
import { layoutEditor } from "../../../src/tui/editor/editor-layout.js";

function type(state: edit.EditorState, text: string) {
	return edit.insert(state, text);
}

describe("editor state", () => {
	it("inserts at the cursor and normalises pasted line endings", () => {
		let state = type(edit.emptyEditor(), "helo");
		state = edit.moveLeft(edit.moveLeft(state));
		state = type(state, "l");
		expect(state.text).toBe("hello");
		expect(type(edit.emptyEditor(), "a\r\nb\rc").text).toBe("a\nb\nc");
	});

	it("deletes whole surrogate pairs", () => {
		const state = type(edit.emptyEditor(), "a😀");
		expect(edit.backspace(state).text).toBe("a");
		expect(edit.moveLeft(state).cursor).toBe(1);
	});

	it("moves between lines keeping the column, and uses history only at the edges", () => {
		let state = edit.submitted(edit.emptyEditor(), "first prompt");
		state = type(state, "abc\nde\nfghij");
		state = edit.up(state);
		expect(state.cursor).toBe("abc\nde".length);
		state = edit.up(state);
		expect(state.cursor).toBe(2);
		state = edit.up(state);
		expect(state.text).toBe("first prompt");
		state = edit.down(state);
		expect(state.text).toBe("abc\nde\nfghij");
	});

	it("walks history back and forth and returns to the draft", () => {
		let state = edit.emptyEditor();
		for (const sent of ["one", "two", "two", "three"]) state = edit.submitted(type(state, sent), sent);
		expect(state.history).toEqual(["one", "two", "three"]);
		state = type(state, "draft");
		state = edit.up(state);
		expect(state.text).toBe("three");
		state = edit.up(edit.up(edit.up(state)));
		expect(state.text).toBe("one");
		state = edit.down(edit.down(edit.down(state)));
		expect(state.text).toBe("draft");
	});

	it("kills to line start and end, and words backwards", () => {
		const state = edit.moveLeft(edit.moveLeft(type(edit.emptyEditor(), "one two three")));
		expect(edit.deleteToLineStart(state).text).toBe("ee");
		expect(edit.deleteToLineEnd(state).text).toBe("one two thr");
		expect(edit.deleteWordBack(type(edit.emptyEditor(), "one two  ")).text).toBe("one ");
	});
});

describe("layoutEditor", () => {
	it("wraps long lines and places the cursor", () => {
		const layout = layoutEditor("abcdefgh\nxy", 5, 3, 10);
		expect(layout.rows.map((row) => row.text)).toEqual(["abc", "def", "gh", "xy"]);
		expect(layout.rows.map((row) => row.cursor)).toEqual([undefined, 2, undefined, undefined]);
	});

	it("puts the cursor at the end of the last row of a line", () => {
		const layout = layoutEditor("abcdef", 6, 3, 10);
		expect(layout.rows.map((row) => row.cursor)).toEqual([undefined, 3]);
	});

	it("shows a window of rows around the cursor of a tall text", () => {
		const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
		const atEnd = layoutEditor(text, text.length, 40, 5);
		expect(atEnd.rows.map((row) => row.text)).toEqual(["line 95", "line 96", "line 97", "line 98", "line 99"]);
		expect(atEnd).toMatchObject({ hiddenAbove: 95, hiddenBelow: 0 });
		const atStart = layoutEditor(text, 0, 40, 5);
		expect(atStart).toMatchObject({ hiddenAbove: 0, hiddenBelow: 95 });
	});

	it("breaks a row after a blank when there is one, as the transcript does, and mid-word only when there is none", () => {
		const text = "fix the add function please";
		const layout = layoutEditor(text, 11, 10, 10);
		expect(layout.rows.map((row) => row.text)).toEqual(["fix the ", "add ", "function ", "please"]);
		expect(layout.rows.map((row) => row.cursor)).toEqual([undefined, 3, undefined, undefined]);
		expect(layoutEditor("abc averyverylongword", 0, 8, 10).rows.map((row) => row.text)).toEqual(["abc ", "averyver", "ylongwor", "d"]);
		expect(layoutEditor("日本 語テキスト", 0, 6, 10).rows.map((row) => row.text)).toEqual(["日本 ", "語テキ", "スト"]);
		expect(layoutEditor(" ab日本", 0, 3, 10).rows.map((row) => row.text)).toEqual([" ", "ab", "日", "本"]);
	});

	it("measures wide characters by their columns", () => {
		expect(layoutEditor("日本語テキスト", 0, 6, 10).rows.map((row) => row.text)).toEqual(["日本語", "テキス", "ト"]);
	});
});
