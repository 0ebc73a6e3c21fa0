// Pasted text reaches the screen on stdin between the bracketed-paste markers, and Ink reads all of stdin as
// key presses: escape sequences inside a paste (copied coloured output, say) would arrive as keys, and some
// make Ink's key parser throw. So a paste's text loses its escape sequences before Ink reads it; the markers
// pass unchanged, and everything outside a paste (the keys) passes as Ink reads it right (normalizeKeys).
import { stripControls, unfinishedSequenceStart } from "../../core/index.js";

const START = "\u001b[200~";
const END = "\u001b[201~";

// Key sequences terminals send that Ink reads wrongly, rewritten, before Ink reads them, to sequences it reads
// right. Applied to keys only, never to pasted text.
// - DEL, what Backspace sends, Ink reads as Delete: it becomes BS, which Ink reads as Backspace (ESC DEL,
//   Alt+Backspace, becomes ESC BS: Backspace with Alt).
// - The kitty protocol's Backspace with modifiers, CSI 127;m u, Ink also reads as Delete: it becomes CSI 8;m u.
// - xterm's modifyOtherKeys form of a modified key, CSI 27;m;code ~ (tmux sends Shift+Enter so), Ink does not
//   know: it becomes the kitty form of the same key, CSI code;m u.
const MISREAD = /\u007f|\u001b\[127((?:;[\d:]+)*)u|\u001b\[27;(\d+);(\d+)~/g;

/** What a terminal with focus reporting on (CSI ?1004h) sends as it gains and loses focus: no key, taken out. */
const FOCUS_REPORT = /\u001b\[([IO])/g;

export function normalizeKeys(input: string): string {
	if (!input.includes("\u007f") && !input.includes("\u001b[")) return input;
	return input.replace(MISREAD, (match, kittyRest: string | undefined, modifiers: string | undefined, code: string | undefined) => {
		if (match === "\u007f") return "\b";
		if (kittyRest !== undefined) return `\u001b[8${kittyRest}u`;
		return `\u001b[${code};${modifiers}u`;
	});
}

/** The pasted text without escape sequences; its line breaks (Enter inside a paste) and tabs kept. */
function cleanPaste(text: string): string {
	return text.replace(/[^\r\n]+/g, (part) => stripControls(part, { keepTabs: true }));
}

/** Cleans bracketed pastes in terminal input, one chunk at a time, whatever the chunks' boundaries. */
export class PasteFilter {
	/** `onFocus`: told of each focus report the keys held (which are taken out of them). */
	constructor(private readonly onFocus?: (focused: boolean) => void) {}

	private pasting = false;
	/** Inside a paste: a sequence the last chunk ended inside (the end marker's start, say), completed by the next. */
	private held = "";
	/** Outside a paste: the last characters passed on, which may be the start of a start marker. */
	private recent = "";

	push(chunk: string): string {
		const text = this.held + chunk;
		this.held = "";
		let out = "";
		let from = 0;
		while (from < text.length) {
			if (!this.pasting) {
				// Keys are never held back (a lone ESC is the Escape key): a marker is found across chunks instead.
				const seen = this.recent + text.slice(from);
				const at = seen.indexOf(START);
				if (at === -1) {
					this.recent = seen.slice(-(START.length - 1));
					return out + this.keys(text.slice(from));
				}
				const end = from + at + START.length - this.recent.length;
				out += this.keys(text.slice(from, end));
				from = end;
				this.pasting = true;
				this.recent = "";
				continue;
			}
			const at = text.indexOf(END, from);
			if (at === -1) {
				const rest = text.slice(from);
				const unfinished = unfinishedSequenceStart(rest);
				const cut = unfinished === -1 ? rest.length : unfinished;
				this.held = rest.slice(cut);
				return out + cleanPaste(rest.slice(0, cut));
			}
			out += cleanPaste(text.slice(from, at)) + END;
			from = at + END.length;
			this.pasting = false;
		}
		return out;
	}

	/** Keys as Ink reads them right, without focus reports (told to onFocus instead). */
	private keys(text: string): string {
		const keys = this.onFocus && text.includes("\u001b[") ? text.replace(FOCUS_REPORT, (_match, which: string) => (this.onFocus?.(which === "I"), "")) : text;
		return normalizeKeys(keys);
	}
}

/**
 * Splits filtered input so each Ctrl+C is a read of its own: Ink reads the text of one read as one input, so two
 * Ctrl+C arriving together (a busy machine) would be typed into the editor instead of exiting. A paste holds none
 * (cleaned above), so splitting cannot cut one.
 */
function splitInterrupts(text: string): string[] {
	return text.includes("\u0003") ? text.split(/(\u0003)/).filter((piece) => piece !== "") : [text];
}

/**
 * Splits keys typed before the screen was up so each control key (Enter, Tab, Backspace, Ctrl+…) is a read of its
 * own: they come in one read, and Ink reads the text of one read as one input, so "hi" and Enter typed at once would
 * be one input, read as a paste rather than a prompt sent. (No terminal marks a paste then: bracketed paste was off.)
 * A line feed is Enter: typed before loom put the terminal in raw mode, Enter reached it as one (Ctrl+J is rarer).
 */
function splitTypedKeys(text: string): string[] {
	return text
		.split(/([\u0000-\u001a\u001c-\u001f])/)
		.filter((piece) => piece !== "")
		.map((piece) => (piece === "\n" ? "\r" : piece));
}

/**
 * `stdin` as Ink reads it (read() after "readable"), with every paste cleaned and the keys Ink misreads
 * rewritten, focus reports taken out (and told to `onFocus`); all else is the stream itself. `typedAhead`: keys
 * typed before the screen was up, read from `stdin` already: they are read first, key by key.
 */
export function withPasteFilter(stdin: NodeJS.ReadStream, onFocus?: (focused: boolean) => void, typedAhead = ""): NodeJS.ReadStream {
	const filter = new PasteFilter(onFocus);
	const pending: string[] = [];
	// Back at the stream's front, so Ink's first read (on the "readable" this makes) takes them before later keys.
	let ahead = typedAhead.length;
	if (ahead > 0) stdin.unshift(typedAhead, "utf8");
	// Ink calls read() until it returns null, so the pieces of one chunk all arrive in the same turn.
	const read = (size?: number): string | null => {
		if (pending.length > 0) return pending.shift()!;
		const chunk: unknown = stdin.read(size);
		if (chunk === null) return null;
		const text = typeof chunk === "string" ? chunk : String(chunk);
		const typed = text.slice(0, ahead);
		ahead -= typed.length;
		const pieces = splitTypedKeys(filter.push(typed));
		const later = text.slice(typed.length);
		if (later !== "" || pieces.length === 0) pieces.push(...splitInterrupts(filter.push(later)));
		const [first, ...rest] = pieces;
		pending.push(...rest);
		return first ?? "";
	};
	return new Proxy(stdin, {
		get(target, key) {
			if (key === "read") return read;
			const value: unknown = Reflect.get(target, key, target);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
}
