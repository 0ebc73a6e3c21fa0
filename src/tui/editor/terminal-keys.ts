// Key sequences terminals send that Ink reads wrongly, rewritten, before Ink reads them, to sequences it reads
// right. Applied to keys only, never to pasted text (see paste-filter.ts).
// - DEL, what Backspace sends, Ink reads as Delete: it becomes BS, which Ink reads as Backspace (ESC DEL,
//   Alt+Backspace, becomes ESC BS: Backspace with Alt).
// - The kitty protocol's Backspace with modifiers, CSI 127;m u, Ink also reads as Delete: it becomes CSI 8;m u.
// - xterm's modifyOtherKeys form of a modified key, CSI 27;m;code ~ (tmux sends Shift+Enter so), Ink does not
//   know: it becomes the kitty form of the same key, CSI code;m u.
const MISREAD = /\u007f|\u001b\[127((?:;[\d:]+)*)u|\u001b\[27;(\d+);(\d+)~/g;

export function normalizeKeys(input: string): string {
	if (!input.includes("\u007f") && !input.includes("\u001b[")) return input;
	return input.replace(MISREAD, (match, kittyRest: string | undefined, modifiers: string | undefined, code: string | undefined) => {
		if (match === "\u007f") return "\b";
		if (kittyRest !== undefined) return `\u001b[8${kittyRest}u`;
		return `\u001b[${code};${modifiers}u`;
	});
}
