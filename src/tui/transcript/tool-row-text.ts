// A tool row as styled text: the header (status glyph, name, arguments, time) and the colours of its result
// lines. Shared by the live ToolRow component and the printed transcript, so both look the same. Here the
// model's and the tool's text is made safe to draw: the header shows what runs with its control characters
// written out, result lines lose theirs; loom's colours are added after.
import chalk from "chalk";
import {
	findTool,
	formatDuration,
	type LineStyle,
	type NamedToolPresentation,
	type StyledLine,
	toolResultLines,
	showControls,
	stripControls,
} from "../../core/index.js";
import { columns, cutEnd } from "../text/index.js";
import type { ToolRunView, ToolStatus } from "./view-model.js";

export const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
export const SPINNER_INTERVAL_MS = 80;

export function spinnerFrame(now: number): string {
	return SPINNER_FRAMES[Math.floor(now / SPINNER_INTERVAL_MS) % SPINNER_FRAMES.length];
}

export function statusGlyph(status: ToolStatus, now: number): string {
	switch (status) {
		case "queued":
			return chalk.dim("○");
		case "preparing":
			return chalk.yellow(spinnerFrame(now));
		case "waiting":
			return chalk.yellow("?");
		case "running":
			return chalk.cyan(spinnerFrame(now));
		case "done":
			return chalk.green("✓");
		case "error":
			return chalk.red("✗");
	}
}

/** Columns an argument summary keeps at least; with less room it is left out rather than cut to nothing. */
const MIN_SUMMARY = 4;

/**
 * "✓ bash npm test 1.2s": glyph, bold name, the arguments' preview, then the time (dimmed). In `width` columns
 * the preview is cut first (then the name): the time always shows.
 */
export function toolRowHeader(run: ToolRunView, now: number, width = Number.POSITIVE_INFINITY): string {
	const settled = run.status === "done" || run.status === "error";
	const elapsed = (settled ? (run.endedAt ?? now) : now) - run.startedAt;
	const time =
		run.status === "queued"
			? " queued"
			: run.status === "waiting"
				? " waiting for approval"
				: run.untimed
					? ""
					: ` ${run.status === "preparing" ? "preparing " : ""}${formatDuration(elapsed)}`;
	let name = showControls(run.name);
	let summary = run.argsPreview ? showControls(run.argsPreview) : "";
	// Glyph and space, the name, then " summary" and the time.
	const room = width - 2 - columns(name) - columns(time);
	if (summary !== "" && columns(summary) + 1 > room) summary = room - 1 >= MIN_SUMMARY ? cutEnd(summary, room - 1) : "";
	if (summary === "" && columns(name) > width - 2 - columns(time)) name = cutEnd(name, Math.max(1, width - 2 - columns(time)));
	const state = run.status === "waiting" ? chalk.yellow(time) : chalk.dim(time);
	return `${statusGlyph(run.status, now)} ${chalk.bold(name)}${summary ? ` ${summary}` : ""}${state}`;
}

/** Lines under a row's header, at most `max`: drawn by its tool's definition among `tools`, or generically. */
export function toolRowLines(run: ToolRunView, max: number, tools: readonly NamedToolPresentation[]): StyledLine[] {
	return toolResultLines(findTool(tools, run.name), run, max);
}

const STYLES: Record<LineStyle, (text: string) => string> = {
	plain: (text) => text,
	dim: chalk.dim,
	added: chalk.green,
	removed: chalk.red,
	hunk: chalk.cyan,
	ok: chalk.green,
	error: chalk.red,
	warning: chalk.yellow,
};

/** A result line in its colour, without the escape sequences of its text; an empty line stays one (blank) row. */
export function styledLineText(line: StyledLine): string {
	const text = stripControls(line.text);
	return text === "" ? " " : STYLES[line.style](text);
}
