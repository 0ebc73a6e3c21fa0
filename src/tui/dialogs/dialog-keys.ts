// Maps Ink key presses onto what a dialog does with them. Pure: (input, key, pasting) => actions.
// Pasted text (between the paste markers) is text, its line breaks become spaces: dialogs take one line.
// Text typed ahead arrives in one chunk with its Enter (over SSH, or typed fast): that is the text, then Enter,
// as in the prompt editor.
import type { Key } from "ink";
import { PASTE_END, PASTE_START } from "../editor/index.js";

export type DialogKey =
	| { type: "up" | "down" | "left" | "right" | "pageUp" | "pageDown" | "home" | "end" }
	| { type: "enter" | "dismiss" | "backspace" | "clear" }
	| { type: "text"; text: string }
	| { type: "pasteStart" | "pasteEnd" }
	| { type: "none" };

function oneLine(text: string): string {
	return text.replace(/\r\n?|\n|\t/g, " ");
}

/** The actions of one chunk of input: usually one; text typed ahead and its trailing Enter are two. */
export function dialogKeys(input: string, key: Key, pasting: boolean): DialogKey[] {
	if (!pasting && !key.return && input.length > 1 && (input.match(/\r\n?|\n/g)?.length ?? 0) === 1 && /(?:\r\n?|\n)$/.test(input)) {
		const text = input.replace(/(?:\r\n?|\n)$/, "");
		return [...dialogKeys(text, { ...key, return: false }, false), { type: "enter" }];
	}
	return [dialogKey(input, key, pasting)];
}

function dialogKey(input: string, key: Key, pasting: boolean): DialogKey {
	if (input === PASTE_START && !key.ctrl) return { type: "pasteStart" };
	if (input === PASTE_END && !key.ctrl) return { type: "pasteEnd" };
	if (pasting) return input === "" && !key.return ? { type: "none" } : { type: "text", text: key.return ? " " : oneLine(input) };
	if (key.ctrl) {
		// Ctrl+C, like Esc, closes the dialog without an answer; Ctrl+U empties the text.
		if (input === "c") return { type: "dismiss" };
		if (input === "u") return { type: "clear" };
		if (input === "a") return { type: "home" };
		if (input === "e") return { type: "end" };
		if (input === "p") return { type: "up" };
		if (input === "n") return { type: "down" };
		return { type: "none" };
	}
	if (key.return) return { type: "enter" };
	if (key.escape) return { type: "dismiss" };
	if (key.upArrow) return { type: "up" };
	if (key.downArrow) return { type: "down" };
	if (key.leftArrow) return { type: "left" };
	if (key.rightArrow) return { type: "right" };
	if (key.pageUp) return { type: "pageUp" };
	if (key.pageDown) return { type: "pageDown" };
	if (key.home) return { type: "home" };
	if (key.end) return { type: "end" };
	// Ink reports the Backspace key of most terminals (DEL) as `delete`, like the forward Delete key.
	if (key.backspace || key.delete) return { type: "backspace" };
	if (key.tab || key.meta || input === "") return { type: "none" };
	return { type: "text", text: oneLine(input) };
}
