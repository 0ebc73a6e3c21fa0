// Shares the rows of the live area between tool rows and streaming text, so the live area is never
// taller than the terminal (taller output makes Ink clear the screen: flicker and lost scrollback).
import type { NamedToolPresentation, StyledLine } from "../../core/index.js";
import { toolRowLines } from "../transcript/index.js";
import type { ToolRunView } from "../transcript/index.js";

/** Result rows a live tool row may use at most (bash's last 5 lines, a diff's first lines). */
export const LIVE_RESULT_LINES = 8;

export interface ToolRowPlan {
	run: ToolRunView;
	/** The rows under its header, as the row shows them (drawn here once, to be counted and shown). */
	lines: StyledLine[];
}

export interface ToolPlan {
	rows: ToolRowPlan[];
	/** Rows of the batch left out (a summary line says how many). */
	hidden: number;
	/** Terminal rows the plan takes, summary line included. */
	height: number;
}

/** Headers first (in source order), then result lines top-down while rows remain. */
export function planToolRows(runs: ToolRunView[], budget: number, tools: readonly NamedToolPresentation[] = []): ToolPlan {
	if (runs.length === 0 || budget <= 0) return { rows: [], hidden: runs.length, height: 0 };
	const hidden = runs.length > budget ? runs.length - (budget - 1) : 0;
	const shown = hidden > 0 ? runs.slice(0, Math.max(0, budget - 1)) : runs;
	let remaining = budget - shown.length - (hidden > 0 ? 1 : 0);
	const rows = shown.map((run) => {
		const wanted = toolRowLines(run, LIVE_RESULT_LINES, tools);
		const allowed = Math.min(wanted.length, Math.max(0, remaining));
		// Cut short, the tool draws its lines for the rows it has (bash keeps its last lines, not its first).
		const lines = allowed === wanted.length ? wanted : toolRowLines(run, allowed, tools);
		remaining -= lines.length;
		return { run, lines };
	});
	const height = rows.reduce((sum, row) => sum + 1 + row.lines.length, 0) + (hidden > 0 ? 1 : 0);
	return { rows, hidden, height };
}

/** Thinking rows shown beside streaming text; alone, it may take up to THINKING_ROWS. */
const THINKING_ROWS = 3;

/** How the live area's rows are shared. */
export interface LiveAreaPlan {
	/** The blank row above the area. */
	margin: number;
	/** 1 for the row of a tool call still being written. */
	pendingRows: 0 | 1;
	tools: ToolPlan;
	thinkingRows: number;
	textRows: number;
}

/**
 * The live area's rows within `budget`: the top margin first, then the call being written, the tool rows, the
 * thinking (one row when text streams too) and the streaming text takes what is left.
 */
export function planLiveArea(options: {
	budget: number;
	pending: boolean;
	hasThinking: boolean;
	hasText: boolean;
	runs: ToolRunView[];
	tools?: readonly NamedToolPresentation[];
}): LiveAreaPlan {
	const margin = 1;
	let room = options.budget - margin;
	const pendingRows = options.pending && room > 0 ? 1 : 0;
	room -= pendingRows;
	const tools = planToolRows(options.runs, room, options.tools);
	room -= tools.height;
	const thinkingRows = options.hasThinking ? Math.max(0, Math.min(options.hasText ? 1 : THINKING_ROWS, room)) : 0;
	room -= thinkingRows;
	const textRows = options.hasText ? Math.max(0, room) : 0;
	return { margin, pendingRows, tools, thinkingRows, textRows };
}

export interface ScreenRows {
	/** Terminal height. */
	rows: number;
	editor: number;
	footer: number;
	queued: number;
}

/** Rows left for the live area; one row is kept free because Ink treats a full screen as fullscreen. */
export function liveBudget({ rows, editor, footer, queued }: ScreenRows): number {
	return Math.max(0, rows - editor - footer - queued - 1);
}

/** Rows a dialog (in the editor's place) may take: what the footer and queued messages leave, one row kept free. */
export function dialogMaxRows({ rows, footer, queued }: Omit<ScreenRows, "editor">): number {
	return Math.max(4, rows - footer - queued - 2);
}
