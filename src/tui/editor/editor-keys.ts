// Maps Ink key presses onto editor commands. Pure: (input, key, pasting) => commands.
// Terminals differ: Shift+Enter is only distinguishable with the kitty protocol or xterm's modifyOtherKeys
// (paste-filter.ts gives Ink the kitty form); Alt+Enter arrives as ESC CR, Ctrl+J as LF. Backspace reaches
// Ink as backspace and Delete as delete only after paste-filter.ts (Ink reads DEL, Backspace's byte, as
// delete). Pastes come bracketed (ESC[200~ … ESC[201~), which Ink hands over as "[200~".
import type { Key } from "ink";

export type EditorCommand =
	| { type: "insert"; text: string }
	| { type: "newline" }
	| { type: "submit" }
	| { type: "backspace" }
	| { type: "deleteForward" }
	| { type: "left" }
	| { type: "right" }
	| { type: "up" }
	| { type: "down" }
	| { type: "home" }
	| { type: "end" }
	| { type: "deleteToStart" }
	| { type: "deleteToEnd" }
	| { type: "deleteWord" }
	| { type: "deleteWordPart" }
	| { type: "wordLeft" }
	| { type: "wordRight" }
	| { type: "escape" }
	| { type: "tab" }
	| { type: "externalEdit" }
	| { type: "ctrlC" }
	| { type: "ctrlD" }
	| { type: "toggleThinking" }
	| { type: "cycleApproval" }
	| { type: "pasteStart" }
	| { type: "pasteEnd" };

export const PASTE_START = "[200~";
export const PASTE_END = "[201~";

const CTRL: Record<string, EditorCommand> = {
	c: { type: "ctrlC" },
	d: { type: "ctrlD" },
	j: { type: "newline" },
	t: { type: "toggleThinking" },
	g: { type: "externalEdit" },
	a: { type: "home" },
	e: { type: "end" },
	u: { type: "deleteToStart" },
	k: { type: "deleteToEnd" },
	w: { type: "deleteWord" },
	b: { type: "left" },
	f: { type: "right" },
};

/** Alt+letter chords, as readline binds them. */
const META: Record<string, EditorCommand> = {
	b: { type: "wordLeft" },
	f: { type: "wordRight" },
};

/** What is left of a function-key sequence Ink did not know (ESC[…~, the ESC dropped): a key with no binding, never text. */
const UNKNOWN_SEQUENCE = /^\[\d+(?:;\d+)*~$/;

/**
 * Text that arrived in one piece outside a bracketed paste: either typed ahead (a trailing Enter means
 * "send") or pasted by a terminal without bracketed paste (several lines: keep them all, send nothing).
 */
function typedText(input: string): EditorCommand[] {
	if (CONTROL.test(input)) return typedWithControls(input);
	const breaks = input.match(/\r\n?|\n/g)?.length ?? 0;
	if (breaks === 1 && input.endsWith("\r")) return [{ type: "insert", text: input.slice(0, -1) }, { type: "submit" }];
	return [{ type: "insert", text: input }];
}

/** Control characters that are keys (Ctrl+C, Ctrl+U, Backspace…), not text; line breaks and tabs are text. */
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;

/**
 * Keys typed ahead arrive in one chunk on a busy machine ("\x03\x03": Ctrl+C twice): each control character is
 * its key, the text between is text.
 */
function typedWithControls(input: string): EditorCommand[] {
	const commands: EditorCommand[] = [];
	let text = "";
	for (const char of input) {
		if (!CONTROL.test(char)) {
			text += char;
			continue;
		}
		if (text !== "") commands.push(...typedText(text));
		text = "";
		const code = char.charCodeAt(0);
		if (code === 0x7f || code === 0x08) commands.push({ type: "backspace" });
		else {
			const command = CTRL[String.fromCharCode(code + 0x60)];
			if (command) commands.push(command);
		}
	}
	if (text !== "") commands.push(...typedText(text));
	return commands;
}

export function editorCommands(input: string, key: Key, pasting: boolean): EditorCommand[] {
	if (input === PASTE_START && !key.ctrl) return [{ type: "pasteStart" }];
	if (input === PASTE_END && !key.ctrl) return [{ type: "pasteEnd" }];
	if (pasting) {
		if (key.return) return [{ type: "insert", text: "\n" }];
		if (key.tab) return [{ type: "insert", text: "\t" }];
		return input === "" ? [] : [{ type: "insert", text: input }];
	}
	if (key.ctrl && input.length === 1) {
		const command = CTRL[input.toLowerCase()];
		return command ? [command] : [];
	}
	if (key.return) return [key.shift || key.meta ? { type: "newline" } : { type: "submit" }];
	if (input === "\n") return [{ type: "newline" }];
	if (key.escape) return [{ type: "escape" }];
	if (key.backspace) return [{ type: key.meta || key.ctrl ? "deleteWordPart" : "backspace" }];
	if (key.delete) return [{ type: "deleteForward" }];
	if (key.leftArrow) return [{ type: key.ctrl || key.meta ? "wordLeft" : "left" }];
	if (key.rightArrow) return [{ type: key.ctrl || key.meta ? "wordRight" : "right" }];
	if (key.upArrow) return [{ type: "up" }];
	if (key.downArrow) return [{ type: "down" }];
	if (key.home) return [{ type: "home" }];
	if (key.end) return [{ type: "end" }];
	if (key.tab && key.shift) return [{ type: "cycleApproval" }];
	if (key.tab && !key.shift) return [{ type: "tab" }];
	if (key.tab || input === "") return [];
	// Other Alt chords have no binding; never type them as text.
	if (key.meta && input.length === 1) {
		const command = META[input];
		return command ? [command] : [];
	}
	if (UNKNOWN_SEQUENCE.test(input)) return [];
	if (input.length > 1) return typedText(input);
	return [{ type: "insert", text: input }];
}
