// The footer's second row fitted to the terminal's width: the directory is shortened first (~ for the home
// folder, then an ellipsis in its middle), then the tokens, the thinking level and the directory are left out,
// then the model name is cut. The cost and the context use always show.
import { columns, cutEnd, cutMiddle } from "../text/index.js";

export interface FooterInfo {
	model: string;
	thinking?: string;
	/** Already with ~ for the home folder. */
	directory?: string;
	tokens: string;
	cost: string;
	/** " · ctx 23%", drawn in its own colour after the rest. */
	context?: string;
}

/** Replaces the home directory with ~ so the footer stays short. */
export function shortenPath(path: string, home: string | undefined): string {
	if (home && home !== "/" && (path === home || path.startsWith(`${home}/`))) return `~${path.slice(home.length)}`;
	return path;
}

const SEPARATOR = " · ";
/** Columns a shortened directory keeps at least; with less room it is left out. */
const MIN_DIRECTORY = 10;
/** Columns a cut model name keeps at least; with less room it is left out. */
const MIN_MODEL = 4;

/** The row's text before the context part, in at most `width` columns with it. */
export function fitFooterInfo(info: FooterInfo, width: number): string {
	const room = width - columns(info.context ?? "");
	const { model, thinking, directory, tokens, cost } = info;
	// Each try keeps fewer parts; the directory (null: its place) shrinks to the room left.
	const tries: Array<Array<string | null | undefined>> = [
		[model, thinking, directory === undefined ? undefined : null, tokens, cost],
		[model, thinking, directory === undefined ? undefined : null, cost],
		[model, directory === undefined ? undefined : null, cost],
	];
	for (const parts of tries) {
		const present = parts.filter((part) => part !== undefined);
		const fixed = present.filter((part): part is string => part !== null);
		const used = fixed.reduce((sum, part) => sum + columns(part), 0) + SEPARATOR.length * (present.length - 1);
		if (!present.includes(null)) {
			if (used <= room) return present.join(SEPARATOR);
			continue;
		}
		const left = room - used;
		if (left >= Math.min(MIN_DIRECTORY, columns(directory ?? ""))) {
			return present.map((part) => (part === null ? cutMiddle(directory ?? "", left) : part)).join(SEPARATOR);
		}
	}
	const forModel = room - columns(cost) - SEPARATOR.length;
	return forModel >= MIN_MODEL ? `${cutEnd(model, forModel)}${SEPARATOR}${cost}` : cost;
}
