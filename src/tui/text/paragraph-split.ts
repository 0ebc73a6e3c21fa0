// Finds the part of a streaming answer that is finished: everything up to the last blank line outside a
// code fence, or up to the closing line of a fence that opened at the start of a line. That part can go into
// the scrollback for good, which keeps the redrawn live area short. A paragraph, list or table is finished
// only by a blank line (a next line could still continue it). Incremental: only lines completed since the
// last call are examined, so a long stream stays linear.

export interface SplitState {
	/** Text not yet moved out; always starts outside a code fence. */
	tail: string;
	/** Start of the first line of `tail` not yet examined. */
	scanned: number;
	/** Marker of the fence open at `scanned` (``` or ~~~, possibly longer). */
	openFence?: string;
	/** The open fence's opening line was indented (it may belong to a list item: its end finishes nothing). */
	fenceIndented?: boolean;
}

export interface SplitResult extends SplitState {
	/** Finished text, ending with a blank line or a fence's closing line; "" when nothing finished. */
	finished: string;
	/**
	 * `finished` ends with a fence's closing line, not a blank line: the text after it follows with no blank
	 * line between (printed apart, it must not get one).
	 */
	continues: boolean;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

function closesFence(line: string, fence: string): boolean {
	const trimmed = line.trim();
	return trimmed.length >= fence.length && trimmed === fence[0].repeat(trimmed.length);
}

export function splitFinished(state: SplitState): SplitResult {
	const { tail } = state;
	let pos = state.scanned;
	let fence = state.openFence;
	let indented = state.fenceIndented === true;
	let cut = -1;
	let continues = false;
	for (let newline = tail.indexOf("\n", pos); newline !== -1; newline = tail.indexOf("\n", pos)) {
		const line = tail.slice(pos, newline);
		if (fence !== undefined) {
			if (closesFence(line, fence)) {
				fence = undefined;
				if (!indented && line[0] !== " ") {
					cut = newline + 1;
					continues = true;
				}
			}
		} else {
			const open = FENCE_OPEN.exec(line);
			if (open) {
				fence = open[1];
				indented = line[0] === " ";
			} else if (line.trim() === "") {
				cut = newline + 1;
				continues = false;
			}
		}
		pos = newline + 1;
	}
	const fenceState = fence === undefined ? {} : { openFence: fence, fenceIndented: indented };
	if (cut === -1) return { tail, scanned: pos, ...fenceState, finished: "", continues: false };
	return { tail: tail.slice(cut), scanned: pos - cut, ...fenceState, finished: tail.slice(0, cut), continues };
}

/** Whether `text` ends inside an unclosed code fence, and the fence's opening line if so (for capped previews). */
export function openFenceLine(text: string): string | undefined {
	let fence: string | undefined;
	let opening: string | undefined;
	for (const line of text.split("\n")) {
		if (fence !== undefined) {
			if (closesFence(line, fence)) {
				fence = undefined;
				opening = undefined;
			}
			continue;
		}
		const open = FENCE_OPEN.exec(line);
		if (open) {
			fence = open[1];
			opening = line;
		}
	}
	return opening;
}
